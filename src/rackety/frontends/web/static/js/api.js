// The API client: every request to the server goes through `api`. What the
// API takes and answers is described by its OpenAPI schema, /openapi.json.

// The server's errors are {"detail": "one line"}; a 422 from FastAPI's own
// validation may carry a list of errors instead.
function errorText(data, status, statusText) {
  if (data && typeof data === "object" && "detail" in data) {
    const d = data.detail;
    if (typeof d === "string") return d;
    if (Array.isArray(d)) {
      return d.map((e) => (e && e.msg ? `${(e.loc || []).slice(1).join(".")}: ${e.msg}`
                                       : JSON.stringify(e))).join("; ");
    }
    return JSON.stringify(d);
  }
  if (typeof data === "string" && data.trim()) return data.trim().slice(0, 300);
  return `${status} ${statusText || "error"}`;
}

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError("The server does not answer (is `rackety serve` running?)", 0);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      data = text;
    }
  }
  if (!response.ok) {
    throw new ApiError(errorText(data, response.status, response.statusText),
                       response.status);
  }
  return data;
}

// Positions are read and written by the server, never here: a CGP read
// (POST /api/position), or a position edited (POST /api/position/edit: its
// board's tiles, racks or scores replaced), each answered as
// {cgp, board, racks, scores, bag}, its CGP as the server writes it. A CGP
// that names no alphabet (ld) is read in LEXICON's.
export function readPosition(cgp, lexicon = null) {
  return api("/api/position", { method: "POST", body: { cgp, lexicon } });
}

export function editPosition({ cgp = null, lexicon = null, tiles, racks, scores }) {
  return api("/api/position/edit", { method: "POST",
                                     body: { cgp, lexicon, tiles, racks, scores } });
}
