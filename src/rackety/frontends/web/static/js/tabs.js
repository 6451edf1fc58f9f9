// The Analyse page's tabs: the position, or the game record.
let analyseTab = "position";

export function currentTab() {
  return analyseTab;
}

export function selectTab(name) {
  analyseTab = name;
  document.querySelectorAll(".tab").forEach((t) =>
    t.classList.toggle("active", t.dataset.tab === name));
  document.getElementById("panel-position").hidden = name !== "position";
  document.getElementById("panel-gcg").hidden = name !== "gcg";
}

document.querySelectorAll(".tab").forEach((t) =>
  t.addEventListener("click", () => selectTab(t.dataset.tab)));
