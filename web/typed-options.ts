// A game in strict TypeScript, as make types checks it (tsconfig.strict.json):
// its launch options typed once, by start<O>, then read without a cast in
// every "start" event, given to launch, and read in a replay's setup.
import { start, playReplay, type Session, type TicnetEvent, type TicCmd } from "./ticnet.js";

/** The game's launch options: what every copy of a game gets in its "start" event. */
interface ArenaOptions { speed: number; walls: boolean }

/** A deterministic game, set up from the seed and the options. */
class Arena {
  tic = 0;
  constructor(readonly seed: number, readonly speed: number, readonly walls: boolean) {}
  step(cmds: (TicCmd | null)[]): void { this.tic += cmds.filter((c) => c !== null).length * this.speed; }
  checksum(): number { return (this.seed ^ this.tic) >>> 0; }
  save(): Uint8Array { return new Uint8Array(new Uint32Array([this.tic]).buffer); }
  load(state: Uint8Array): void { this.tic = new Uint32Array(state.slice().buffer)[0]; }
}
const defaults: ArenaOptions = { speed: 2, walls: true };
let arena = new Arena(1, defaults.speed, defaults.walls);

function onEvent(e: TicnetEvent<ArenaOptions>): void {
  if (e.kind === "start" && !e.joined) {
    const options: ArenaOptions = e.options ?? defaults;
    arena = new Arena(e.seed, options.speed, options.walls);
    // @ts-expect-error: the options have no colour
    void e.options?.colour;
  }
}

const game = {
  input: (): TicCmd => ({ forward: 0, side: 0, turn: 0, buttons: 0 }),
  onTic: (_tic: number, cmds: (TicCmd | null)[]) => arena.step(cmds),
  checksum: () => arena.checksum(),
  save: () => arena.save(),
  load: (state: Uint8Array) => arena.load(state),
};

const net: Session<ArenaOptions> = await start<ArenaOptions>({ ...game, onEvent });
net.on("start", (e) => { const speed: number | undefined = e.options?.speed; void speed; });
await net.launch({ options: { speed: 3, walls: false } });
// @ts-expect-error: launch takes the game's options
await net.launch({ options: { speed: "fast" } });

// A replay (a late joiner's too) is set up in setup, before the first
// snapshot's load: not after the await, which would lose that state.
const bytes = net.replay();
if (bytes) {
  const replay = await playReplay<ArenaOptions>(bytes, {
    ...game,
    setup: (facts) => { const o = facts.options ?? defaults; arena = new Arena(facts.seed, o.speed, o.walls); },
  });
  const walls: boolean | undefined = replay.options?.walls;
  void walls;
}
