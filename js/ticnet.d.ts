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
export interface Settings {
  /** Extra copies of each tic per packet (default 1; 2 on lossy links). */
  extraTics?: number;
  deathmatch?: number;
  episode?: number;
  map?: number;
  skill?: number;
  timeLimit?: number;
}

export type EventKind =
  | "role" | "lobby" | "start" | "join" | "leave" | "desync" | "disconnect"
  | "rejected" | "message" | "launched" | "split" | "serverLost" | "newServer";

/** Something that happened. Fields beyond kind depend on the kind. */
export interface TicnetEvent {
  kind: EventKind;
  /** role: "server" or "client". */
  role?: "server" | "client";
  /** This copy's UID on the channel, and the server's. */
  uid?: number;
  serverUID?: number;
  /** The player concerned (join, leave, desync), or this copy's (start). */
  player?: number;
  name?: string;
  reason?: string;
  tic?: number;
  players?: number[];
  /** lobby: the players, and whether this copy may launch. */
  lobby?: { players: { name: string; addr: string }[]; controller: boolean; player: number; maxPlayers: number };
  protocol?: string;
}

export interface Options {
  /** URL of ticnet.wasm (default "ticnet.wasm"). */
  wasmURL?: string;
  /** Player name, at most 29 bytes. */
  name?: string;
  /** Most players (2..8, default 8). */
  maxPlayers?: number;
  /** Election timing: "local" for tabs, "gossip" for a chat's realtime channel (default: by channel). */
  profile?: "local" | "gossip";
  /** Connection timeout: "browser" (4 s, default) or "reference" (30 s). */
  timeout?: "browser" | "reference";
  settings?: Settings;
  /** The local player's input for a tic. */
  input(tic: number): TicCmd;
  /** Run one tic: cmds[p] is player p's command, null where ingame[p] is false. */
  onTic(tic: number, cmds: (TicCmd | null)[], ingame: boolean[]): void;
  /** A 32-bit hash of the game state after the last tic: copies compare it. */
  checksum(): number;
  onEvent?(event: TicnetEvent): void;
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
  channel: { kind: "webxdc" | "broadcast"; framesIn: number; framesOut: number; dropped: number; filtered: number; oversize: number };
}

export interface Session {
  launch(): void;
  leave(): void;
  stats(): Stats;
  on(kind: EventKind, fn: (e: TicnetEvent) => void): void;
}

export function start(options: Options): Promise<Session>;
