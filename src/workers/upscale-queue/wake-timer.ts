// One timer for the earliest moment a waiting item's retry delay ends: asking for a later moment
// keeps the timer already set, asking for an earlier one replaces it.
export type SetTimer = (fn: () => void, ms: number) => () => void;

export class WakeTimer {
  private cancel: (() => void) | null = null;
  private at = Infinity;

  constructor(
    private readonly setTimer: SetTimer,
    private readonly now: () => number,
    private readonly onWake: () => void,
  ) {}

  wakeAt(at: number): void {
    if (this.cancel && this.at <= at) return;
    this.cancel?.();
    this.at = at;
    this.cancel = this.setTimer(
      () => {
        this.cancel = null;
        this.at = Infinity;
        this.onWake();
      },
      Math.max(0, at - this.now()),
    );
  }
}
