// The page's views, one shown at a time, chosen by the location's hash.
const VIEWS = ["play", "game", "analyse", "endgame", "games", "rankings", "study",
  "puzzles"];

export function currentRoute() {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, "")) || "play";
  const [name, arg] = hash.split("/");
  return { name, arg: arg === undefined ? null : arg };
}

export function showView(name) {
  for (const v of VIEWS) document.getElementById(`view-${v}`).hidden = v !== name;
  const nav = { game: "play", endgame: "analyse" }[name] || name;
  document.querySelectorAll("nav a").forEach((a) =>
    a.classList.toggle("active", a.dataset.route === nav));
}
