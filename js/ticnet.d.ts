// Types for ticnet.js, the public JS API of ticnet.

/** One player's input for one tic. */
export interface TicCmd {
  /** -128..127: forward (positive) or back. */
  forward: number;
  /** -128..127: right (positive) or left. */
  side: number;
  /** -32768..32767: turning, in 1/65536 of a full turn per tic. */
  turn: number;
  /** 0..127: button bits (bit 0 fire, bit 1 use, ...). */
  buttons: number;
  /** 0..255: a chat character, sent once. */
  chat?: number;
}

/** Game settings the controller asks for. */
/** The game's settings, as Doom has them; start rejects a value out of range or an unknown key. */
export interface Settings {
  /** Extra copies of each tic per packet, 0 to 3 (default 1; 2 on lossy links). */
  extraTics?: number;
  /** 0 to 3. */
  deathmatch?: number;
  /** 1 to 4. */
  episode?: number;
  /** 1 to 32. */
  map?: number;
  /** 0 to 4. */
  skill?: number;
  /** Minutes, 0 for none. */
  timeLimit?: number;
}

/**
 * What happened. When the server goes in the middle of a game (its tab
 * closed, or it fell silent), the others keep the game: "migrating" (with
 * the tic the game stands at, and why), then "resumed" once a new server,
 * elected among the copies of that game, runs it on from where it was (no
 * new game, no "start"); the election's own events ("serverLost", "role",
 * "newServer") may come between them.
 * A server whose page is hidden, frozen or cached hands its game over at
 * once to a visible client and plays on as a client: "role" (client),
 * "migrating" with reason "handed off", then "resumed" as on every copy.
 * "migrateFailed": no new server of the game within 10 s; this copy drops
 * the game and joins whatever game the channel has ("start" follows).
 * "yielded": this copy served its game beside an earlier server of the
 * same game (a partition healed): that one keeps the game, and this copy
 * joins it as its own player ("start" with joined and rejoined follows;
 * load brings the state).
 */
export type EventKind =
  | "role" | "lobby" | "start" | "catchup" | "join" | "rejoined" | "leave" | "desync" | "disconnect"
  | "rejected" | "retry" | "message" | "launched" | "split" | "serverLost" | "newServer"
  | "migrating" | "resumed" | "migrateFailed" | "yielded" | "error";

/** Something that happened. Fields beyond kind depend on the kind. */
export interface TicnetEvent {
  kind: EventKind;
  /** role: "server" or "client". */
  role?: "server" | "client";
  /** This copy's UID on the channel, and the server's. */
  uid?: number;
  serverUID?: number;
  /** The player concerned (join, leave, desync), or this copy's (start, rejoined). */
  player?: number;
  name?: string;
  /** rejected: the server's reason (the copy then gets retry, and connects again); leave, disconnect, desync: why. */
  reason?: string;
  /**
   * start: the first tic this copy runs (0 for a game from the beginning;
   * later for one joined in progress, whose state load brings first);
   * join: the tic from which the player who joined in progress plays, the
   * same on every copy; catchup: the tic the state is of; migrating: the
   * tic this copy's game stands at when its server went; resumed: the tic
   * from which the game goes on under the new server, the same on every
   * copy.
   */
  tic?: number;
  /** start: this copy joins a game in progress (it then gets catchup events, and a join for its own player once it plays). */
  joined?: boolean;
  /**
   * start: this copy joins a game in progress with its player back (it
   * left, or was reloaded, and came back with its rejoin token within the
   * server's grace period); a "rejoined" event, with the player and the
   * state's tic, follows the start.
   */
  rejoined?: boolean;
  /**
   * resumed: how long the game stood still here, in ms, from the loss of
   * the server to the new server's first tic.
   */
  gapMS?: number;
  /** catchup: done of total units: "bytes" of the game state while it arrives, then "tics" run to catch up. */
  done?: number;
  total?: number;
  unit?: "bytes" | "tics";
  players?: number[];
  /** lobby: the players, and whether this copy may launch. */
  lobby?: { players: { name: string; addr: string }[]; controller: boolean; player: number; maxPlayers: number };
  protocol?: string;
  /**
   * error: the game's callback that threw ("input", "onTic", "checksum",
   * "save" or "load"), with the tic, the exception's message and stack.
   * The copy left the game, cleanly, and plays no more.
   */
  callback?: "input" | "onTic" | "checksum" | "save" | "load";
  message?: string;
  stack?: string;
}

export interface Options {
  /** URL of ticnet.wasm (default "ticnet.wasm"). */
  wasmURL?: string;
  /** Player name, at most 29 bytes in UTF-8 (start rejects a longer one). */
  name?: string;
  /** Most players (an integer from 2 to 8, default 8). */
  maxPlayers?: number;
  /** Election timing: "local" for tabs, "gossip" for a chat's realtime channel (default: by channel). */
  profile?: "local" | "gossip";
  /** Connection timeout: "browser" (4 s, default) or "reference" (30 s). */
  timeout?: "browser" | "reference";
  settings?: Settings;
  /**
   * Keep a rejoin token (default true): a copy that comes back to a game in
   * progress (a reload, an app restart inside a messenger, a new identity
   * on the channel) gets its player back within the server's grace period
   * (60 s). The token is kept in sessionStorage and localStorage under
   * "ticnet-token:" + storageKey; a tab of the same browser whose token
   * another tab uses (a Web Lock tells) takes a new one.
   */
  rejoin?: boolean;
  /** Names the stored token (default location.pathname): copies of one game share it. */
  storageKey?: string;
  /** The local player's input for a tic. */
  input(tic: number): TicCmd;
  /** Run one tic: cmds[p] is player p's command, null where ingame[p] is false. */
  onTic(tic: number, cmds: (TicCmd | null)[], ingame: boolean[]): void;
  /** A 32-bit hash of the game state after the last tic: copies compare it. */
  checksum(): number;
  /**
   * Optional, with load: the whole game state after the last tic, as new
   * bytes. With both, a copy opened while a game runs joins it, and this
   * copy can give the state to one that does; without them, such a copy
   * cannot join and leaves.
   */
  save?(): Uint8Array;
  /**
   * Replace the game state with one save returned, maybe on another copy.
   * Throw (the game unchanged) on bytes it cannot read: they come from the
   * network; the copy then leaves the game.
   */
  load?(state: Uint8Array): void;
  onEvent?(event: TicnetEvent): void;
  /**
   * Run ahead of the confirmed tics (on by default when save and load are
   * given): onTic runs a tic as soon as the local player's command for it
   * is built, with every other player's last confirmed command (events
   * cleared) assumed; when a confirmed tic differs, load brings back the
   * state before it and onTic runs the tics again. Render the state after
   * the last onTic. stats().gametic is the first tic not confirmed,
   * predictedTic the first not run; checksums are compared for confirmed
   * tics only.
   */
  predict?: boolean;
  /** How many tics prediction may run ahead: default 8, an integer from 1 to 64. */
  predictTics?: number;
}

export interface Stats {
  role: "undecided" | "server" | "client";
  uid: number;
  players: string[];
  gametic: number;
  recvtic: number;
  maketic: number;
  /** Round trip from building a command to receiving its tic, ms. */
  rttMS: number;
  protocol: string;
  framesInPerSec: number;
  framesOutPerSec: number;
  bytesInPerSec: number;
  bytesOutPerSec: number;
  dropped: number;
  resends: number;
  substituted: number;
  /** Netcode time per pass, µs (median and 99th percentile of the last second). */
  passMedianUS: number;
  passP99US: number;
  /** Mean netcode time per pass, µs: finer than the median, as the page's clock ticks in 100 µs. */
  passMeanUS: number;
  /** Bytes of game state this copy received (it joined a game in progress). */
  transferBytesIn: number;
  /** When this copy joined a game in progress: ms from the server's word that it joins to the whole state (transferMS) and to playing (joinMS); 0 before. */
  transferMS: number;
  joinMS: number;
  /** Most tics one pass runs: learnt from what a tic costs, so that catching up does at most ~40 ms of game work at a time. */
  ticsPerUpdate: number;
  /** What a tic costs your game, as learnt, µs (0 before the first). */
  ticCostUS: number;
  /** Prediction: the first tic not run (gametic: not confirmed); the tics run ahead, the rollbacks, and the predicted tics they undid. */
  predictedTic: number;
  predicted: number;
  rollbacks: number;
  rolledBack: number;
  channel: { kind: "webxdc" | "broadcast"; framesIn: number; framesOut: number; dropped: number; filtered: number; oversize: number };
}

export interface Session {
  /** Launches the game: only the lobby's controller may; elsewhere it rejects with the reason. */
  launch(): Promise<void>;
  leave(): void;
  stats(): Stats;
  /** Calls fn for every event of kind (after options.onEvent). */
  on(kind: EventKind, fn: (e: TicnetEvent) => void): void;
  /** Stops calling fn, as on added it. */
  off(kind: EventKind, fn: (e: TicnetEvent) => void): void;
}

/**
 * Starts ticnet. Rejects, with a message that names the option, on an
 * unknown option or one out of range, and on missing callbacks.
 */
export function start(options: Options): Promise<Session>;

export interface SyncTestOptions {
  /** The game, as start takes it; save and load are required. */
  input(tic: number): TicCmd;
  onTic(tic: number, cmds: (TicCmd | null)[], ingame: boolean[]): void;
  checksum(): number;
  save(): Uint8Array;
  load(state: Uint8Array): void;
  /** Tics to run (default 1000), tics run again after each (default 8, at most 64), players (default 2). */
  tics?: number;
  rollback?: number;
  players?: number;
  wasmURL?: string;
}

/** What syncTest found. */
export interface SyncTestResult {
  ok: boolean;
  /** ok: the tics run. */
  tics: number;
  /** Not ok: the first tic that ran differently, and the tic after which it was run again. */
  tic: number;
  at: number;
  /** Not ok: the checksum after the first run and after the re-run. */
  checksum: number;
  rerun: number;
  /** Not ok: the first byte where the states saved after the two runs differ; -1 when they do not. */
  stateOffset: number;
  /** Not ok: what happened (a mismatch, or a callback that threw). */
  message: string;
}

/**
 * Checks that a game is deterministic (GGRS's SyncTest) in this page,
 * without a network: after every tic it loads the state of the last
 * `rollback` tics back and runs them again with the same commands, and
 * reports the first tic that ran differently. Run it before start.
 */
export function syncTest(options: SyncTestOptions): Promise<SyncTestResult>;
