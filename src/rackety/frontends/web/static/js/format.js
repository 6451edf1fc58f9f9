// Numbers, dates and rating changes as the page writes them.
import { h } from "./dom.js";

export function fmt(x, digits = 1) {
  if (x === null || x === undefined || Number.isNaN(Number(x))) return "";
  return Number(x).toFixed(digits);
}

export function signed(x, digits = 0) {
  const v = Number(x);
  const s = v.toFixed(digits);
  return v > 0 ? `+${s}` : s;
}

export function shortDate(text) {
  if (!text) return "";
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) return String(text);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}


export function ratingChange(before, after) {
  if (after === null || after === undefined) return "";
  if (before === null || before === undefined) return fmt(after, 0);
  const delta = Number(after) - Number(before);
  return h("span", {}, `${fmt(before, 0)} → ${fmt(after, 0)} `,
    h("span", { class: delta >= 0 ? "up" : "down" }, `(${signed(delta, 0)})`));
}
