// The game clocks on the game page: each player's time left (m:ss, red past
// zero), the clock of the player to move counting down between the server's
// states. The server's figure is the truth at each state: the page counts from
// it, by its own clock, only until the next state comes.
import { game } from "./game-state.js";

let received = 0; // performance.now() when the current state's clock came
let timer = null;

// "m:ss" of SECONDS left ("-m:ss" past zero).
export function clockText(seconds) {
  const whole = Math.floor(Math.abs(seconds));
  const sign = seconds < 0 && whole > 0 ? "-" : "";
  return `${sign}${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// The seconds left on SEAT's clock now: the state's figure, less the time since
// it came for the clock that runs.
export function clockLeft(g, seat) {
  const clock = g && g.clock;
  if (!clock || !Array.isArray(clock.left)) return null;
  const left = Number(clock.left[seat]);
  return clock.running === seat ? left - (performance.now() - received) / 1000 : left;
}

// Draw every clock cell of the scoreboard (data-clock-seat) from the state.
function draw() {
  for (const cell of document.querySelectorAll("[data-clock-seat]")) {
    const left = clockLeft(game.data, Number(cell.dataset.clockSeat));
    if (left === null) continue;
    cell.textContent = clockText(left);
    cell.classList.toggle("over", left < 0);
  }
}

// A new state from the server: its clocks count from now.
export function clockReceived(g) {
  received = performance.now();
  if (timer === null && g && g.clock) timer = setInterval(draw, 250);
}

// After the scoreboard is drawn: its clock cells show the time left.
export function drawClocks() {
  draw();
}
