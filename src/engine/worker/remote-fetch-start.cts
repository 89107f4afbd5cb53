// The fetch thread's entry, in CommonJS for the reason worker-start.cts
// gives: a thread ended while an ES module loads by require() aborts the
// process; loaded by import(), it stops cleanly.
void import('./remote-fetch-thread.js');
