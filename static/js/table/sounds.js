// Optional sounds and a short vibration for the table page: off until the player turns them on.
// The tones are made here with WebAudio, so there are no audio files to fetch. Browsers only let
// a page start audio after a user gesture, so the AudioContext is made on the first play() that
// follows one; a saved "sounds on" preference alone does not count as one.

// Each sound: notes of [frequency in Hz, start in s, length in s], a waveform and a peak volume.
const TONES = {
  card: { wave: "triangle", peak: 0.18, notes: [[660, 0, 0.07]] },
  turn: { wave: "sine", peak: 0.2, notes: [[587, 0, 0.12], [880, 0.13, 0.18]] },
  trick: { wave: "sine", peak: 0.16, notes: [[523, 0, 0.09], [659, 0.08, 0.09], [784, 0.16, 0.16]] },
};
const VIBRATION_MS = [40, 60, 40];

let on = false;
let context = null;
let gestureSeen = false;

function noteGesture() {
  gestureSeen = true;
}
if (typeof window !== "undefined") {
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    window.addEventListener(type, noteGesture, { once: true, capture: true, passive: true });
  }
}

function audioContext() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context || !gestureSeen) return null;
  context = new Context();
  return context;
}

function playNote(audio, wave, peak, [frequency, start, length]) {
  const at = audio.currentTime + start;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = wave;
  oscillator.frequency.value = frequency;
  // A quick rise and an exponential fall: a click-free, short "tock".
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.02);
}

// Plays "card", "turn" or "trick"; does nothing while sounds are off, before any user gesture,
// or where the browser has no WebAudio. Returns whether a sound was started.
export function play(name) {
  const tone = TONES[name];
  if (!on || !tone) return false;
  const audio = audioContext();
  if (!audio) return false;
  if (audio.state === "suspended") audio.resume();
  for (const note of tone.notes) playNote(audio, tone.wave, tone.peak, note);
  return true;
}

// A short buzz (for "your turn") where the device has a vibrator and sounds are on.
export function vibrate() {
  if (!on || typeof navigator === "undefined" || typeof navigator.vibrate !== "function") return false;
  return navigator.vibrate(VIBRATION_MS);
}

export function setEnabled(value) {
  on = Boolean(value);
}

export function enabled() {
  return on;
}
