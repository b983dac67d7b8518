/* dicelens: the Throw button of a camera that throws the dice itself (the simulated one, a
 * file), on the live page (index.html) and the teaching round's (teach.html): POST /api/throw
 * throws the armed roll's dice or, while the teaching round is on, the round's set. */
import { API, act, api } from "./api.js";

/** Throw on each click of ``button``: ``before()`` first, then ``done(state)`` with the state
 *  the server answers (null when refused: act's toast said why). */
export function throwButton(button, { before = () => {}, done = () => {} } = {}) {
  button.addEventListener("click", async () => {
    before();
    done(await act(api.post(API.throw)));
  });
}

/** ``button`` shown where the camera throws by itself (``canThrow``), enabled when a throw
 *  would count (``ready``: a roll armed, the round waiting for a throw). */
export function showThrow(button, canThrow, ready) {
  button.hidden = !canThrow;
  button.disabled = !ready;
}
