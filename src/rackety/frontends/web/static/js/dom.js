// DOM helpers: find, make and empty elements; errors, toasts, fields and files.

export const $ = (id) => document.getElementById(id);

// h("div", {class: "x", "data-testid": "y", onclick: fn}, child, "text", ...)
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(node.style, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function showError(box, message) {
  if (!box) return;
  if (message) {
    box.textContent = message;
    box.hidden = false;
  } else {
    box.textContent = "";
    box.hidden = true;
  }
}

let toastTimer = null;
export function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}


// Typing in a field must not place tiles or move through turns.
export function typingInField(event) {
  const t = event.target;
  if (!t || !t.tagName) return false;
  if (t.tagName === "INPUT") {
    return !["checkbox", "radio", "button", "submit", "file"].includes(t.type);
  }
  return ["TEXTAREA", "SELECT"].includes(t.tagName) || t.isContentEditable;
}

export function readFileText(input) {
  return new Promise((resolve, reject) => {
    const file = input.files && input.files[0];
    if (!file) {
      resolve(null);
      return;
    }
    if (file.size > 1024 * 1024) {
      reject(new Error("That file is larger than 1 MB; a GCG is a few kilobytes."));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error("The file could not be read."));
    reader.readAsText(file);
  });
}

export function fillSelect(select, items, selected) {
  clear(select);
  for (const item of items) {
    const value = typeof item === "string" ? item : item.value;
    const label = typeof item === "string" ? item : item.label;
    select.append(h("option", { value, selected: value === selected }, label));
  }
}
