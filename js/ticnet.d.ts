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
  /** 0 to 3 (default 0). */
  deathmatch?: number;
  /** 1 to 4 (default 1). */
  episode?: number;
  /** 1 to 32 (default 1). */
  map?: number;
  /** 0 to 4 (default 2). */
  skill?: number;
  /** Minutes, 0 to 2147483647 (default 0: none). */
  timeLimit?: number;
}

// Events: what happened, one type per kind (TicnetEvent is their union;
// switch on e.kind). They come through options.onEvent and on(kind, fn),
// from the engine's pass, never from inside your callbacks.

/** This copy's role was decided (and again whenever it changes): it serves, or is a client of serverUID. */
export interface RoleEvent { kind: "role"; role: "server" | "client"; uid: number; serverUID: number }
/** A client heard an earlier server than its own in the lobby and follows it. */
export interface NewServerEvent { kind: "newServer"; role: "client"; serverUID: number }
/**
 * The players changed: in the lobby, who is in and whether this copy may
 * launch; in a game (TICNET_1), after every change (a player joined, left
 * or came back, the controller changed with a migration), on every copy, a
 * late or returning one's included once it plays.
 */
export interface LobbyEvent { kind: "lobby"; lobby: Lobby }
/**
 * The game's players by number and name (addr: in the lobby; "" in a
 * game). controller: this copy's player is the controller, who launches
 * and may end the game; after a migration it stays who it was if its copy
 * plays on, else it is the lowest-numbered player still in the game.
 */
export interface Lobby { players: { name: string; addr: string; player: number }[]; controller: boolean; player: number; maxPlayers: number }
/** The controller launched the game (on the controller only). */
export interface LaunchedEvent { kind: "launched" }
/**
 * This copy's game starts: from tic 0, or (joined) a game in progress from
 * tic, whose state load brings first ("catchup" events follow, and a
 * "join" for its own player once it plays); rejoined: with its player back
 * (its rejoin token), and a "rejoined" event follows. Do not reset your
 * game on a joined start: load sets it. ticRate is the game's tics per
 * second (the server's options.ticRate under TICNET_1; 35 under the
 * reference protocol); seed and options are what the controller's
 * launch gave (the same on every copy, a late one's included; seed 0 and
 * options undefined under the reference protocol): seed your game's
 * random numbers with seed. It comes before any callback of the game it
 * starts (input, onTic, save, load): set your game up from it. O is
 * the type of the options, as the game gave it to start<O> (options
 * read without a cast; unknown when it gave none).
 */
export interface StartEvent<O = unknown> {
  kind: "start"; player: number; protocol: string; tic: number; joined: boolean; rejoined: boolean;
  ticRate: number; seed: number; options?: O;
  /** The players the game starts with, as the lobby had them; null for a joined or rejoined start ("lobby" follows once this copy plays). */
  lobby: Lobby | null;
}

/** What the controller launches a game with (Session.launch): O is the type of its options (start<O>). */
export interface LaunchOptions<O = unknown> {
  /** The game's own settings: a Uint8Array, or any JSON value; at most 1024 bytes as sent (1 byte + the bytes, or the JSON in UTF-8). */
  options?: O;
  /** A 32-bit seed every copy gets (default: a random one). */
  seed?: number;
}
/** This copy got its player back (a reload, an app restart), from the state's tic. */
export interface RejoinedEvent { kind: "rejoined"; player: number; name?: string; tic: number }
/** A joining copy's progress: done of total "bytes" of the state of tic, then "tics" run to catch up. */
export interface CatchupEvent { kind: "catchup"; tic: number; done: number; total: number; unit: "bytes" | "tics" }
/** A player joined the game in progress and plays from tic, the same on every copy; name, where this copy knows it (a "lobby" follows with it). */
export interface JoinEvent { kind: "join"; player: number; name?: string; tic: number }
/** A player left the game at tic (it said so, or timed out: reason); name, where this copy knew it. */
export interface LeaveEvent { kind: "leave"; player: number; name?: string; tic: number; reason: string }
/** The copies' checksums differ at tic: players (player is the first) ran something else, by the server's verdict, which every copy gets; diverged: this copy's player is among them, its game is the one that went astray. On the server's copy, name names them. */
export interface DesyncEvent { kind: "desync"; player: number; players: number[]; name?: string; tic: number; reason: string; diverged: boolean }
/** A console message from the server (a reference server's, say). */
export interface ConsoleMessageEvent { kind: "message"; reason: string }
/** The server refused this copy (reason); a "retry" follows and it connects again. */
export interface RejectedEvent { kind: "rejected"; reason: string }
/** This copy's connection to its server ended (reason). */
export interface DisconnectEvent { kind: "disconnect"; reason: string }
/** This copy connects again (after a refusal, or a join that failed). */
export interface RetryEvent { kind: "retry" }
/** Another server serves another game on the channel: reported, not resolved. */
export interface SplitEvent { kind: "split"; serverUID: number }
/** The election lost this copy's server (a "role" follows once it has another). */
export interface ServerLostEvent { kind: "serverLost" }
/**
 * The server went in the middle of the game (its tab closed, it fell
 * silent, or its page was hidden and it handed the game over: reason
 * "handed off"): this copy keeps the game, which stands at tic, and a new
 * server elected among its copies runs it on ("resumed"); "serverLost" and
 * "role" may come between.
 */
export interface MigratingEvent { kind: "migrating"; tic: number; reason: string }
/** The game goes on under serverUID from tic, the same on every copy, after gapMS ms standing still here (from the last tic this copy ran). No "start": it is the same game. */
export interface ResumedEvent { kind: "resumed"; serverUID: number; tic: number; gapMS: number }
/** No new server of the game within 10 s: this copy drops the game and joins whatever game the channel has ("start" follows). */
export interface MigrateFailedEvent { kind: "migrateFailed" }
/** This copy served its game beside an earlier server of the same game (a partition healed): that one keeps it, and this copy joins it as its own player ("start" with joined and rejoined follows). */
export interface YieldedEvent { kind: "yielded"; serverUID: number }
/**
 * One of your callbacks threw: which, at which tic, with the exception's
 * message and stack (reason: as the engine saw it). This copy left the
 * game, cleanly, and calls your game no more. Or the channel did (its
 * send, under the shim): callback is "", tic 0 and stack "", and message
 * (as reason) names the shim's function and the exception; this copy left
 * the game, though its goodbye may not have gone out. Or the game is not
 * deterministic on this copy (TICNET_1: its state diverged from the
 * others' again and again, each time repaired): callback "", tic 0, and
 * message (as reason) says so; this copy left the game.
 */
export interface GameErrorEvent {
  kind: "error"; callback: "input" | "onTic" | "checksum" | "save" | "load" | "playerChecksum" | "over" | "onConfirmed" | ""; tic: number; message: string; stack: string; reason: string;
}

/** A player asks to end the game (on the controller's copy, which may end it with endGame). */
export interface EndAskedEvent { kind: "endAsked"; player: number }
/**
 * The game ended before tic, the same on every copy: this copy is back in its lobby ("lobby" follows), and the controller may launch again.
 * over: the game ended itself (its over callback said so after tic - 1), not at endGame.
 */
export interface EndEvent { kind: "end"; tic: number; over: boolean }
/**
 * With inputDelay "auto": this copy takes its input delay tics before the
 * tic it is for from tic on, as the game's server chose from the round
 * trips it measures.
 */
export interface InputDelayEvent { kind: "inputDelay"; tic: number; delay: number }
/**
 * A copy's game state diverged from the others' and was set right
 * (TICNET_1): that copy loaded the majority's state before tic, bytes
 * long, ms after the server asked a copy of the majority for it, and ran
 * the tics since again; every copy hears of it. diverged: it was this
 * copy, whose state was replaced (what it showed since the divergence was
 * not the game). A copy that diverges 3 times within 30 s leaves with an
 * "error" event instead: its game is not deterministic there.
 */
export interface RepairedEvent { kind: "repaired"; player: number; name?: string; tic: number; bytes: number; ms: number; diverged: boolean }
/**
 * Game states around the first tic of the game's first desync (TICNET_1,
 * with keepStates): before, the state save returned before tic (every
 * copy agreed on it), and after, the state after it (whose checksums
 * differ). Every copy that keeps its states gets its own (fetched false),
 * the majority's copies as the one that diverged (diverged: it was this
 * copy); the copy that diverged then gets a copy of the majority's, which
 * it fetched from one (fetched true). Compare the two afters byte by byte
 * or field by field: diffStates, the demo's diff.html, `ticnet-replay
 * diff`.
 */
export interface DesyncStatesEvent { kind: "desyncStates"; tic: number; diverged: boolean; fetched: boolean; before: Uint8Array; after: Uint8Array }

/** Something that happened: switch on kind. O: the type of the launch options (start<O>). */
export type TicnetEvent<O = unknown> =
  | RoleEvent | NewServerEvent | LobbyEvent | LaunchedEvent | StartEvent<O> | RejoinedEvent | CatchupEvent | JoinEvent
  | LeaveEvent | DesyncEvent | ConsoleMessageEvent | RejectedEvent | DisconnectEvent | RetryEvent | SplitEvent
  | ServerLostEvent | MigratingEvent | ResumedEvent | MigrateFailedEvent | YieldedEvent | GameErrorEvent
  | EndAskedEvent | EndEvent | InputDelayEvent | RepairedEvent | DesyncStatesEvent;

export type EventKind = TicnetEvent["kind"];

/** The event type of one kind: EventOf<"start"> is StartEvent (of options O). */
export type EventOf<K extends EventKind, O = unknown> = Extract<TicnetEvent<O>, { kind: K }>;

/**
 * A game whose input is Doom's ticcmd (the default, and the only input a
 * reference peer such as Chocolate Doom understands).
 */
export interface TicCmdGame {
  inputSize?: undefined;
  /**
   * The local player's input for a tic. The engine calls it from its own
   * loop (a 5 ms timer, not your render loop), once per tic as the game's
   * clock reaches it: the tic rate (35 a second by default: about every 28.6 ms), a few at
   * once after a stall. Return the input as it is now, held state
   * included (a key still down is sent again every tic): when this
   * player's command reaches the server too late, the server runs the tic
   * with a substitute, this player's previous command with its one-off
   * fields (chat) cleared, and this copy puts the one-off fields of the
   * late command into its next command (events are never lost, only
   * late). A game that sends held state loses nothing.
   */
  input(tic: number): TicCmd;
  /**
   * Run one tic: cmds[p] is player p's command, null where ingame[p] is
   * false; substituted[p] is true where the server ran a substitute for
   * p's late command (its last one, events cleared). Called from the
   * engine's loop, in tic order, at the tic rate in game time (more at
   * once to catch up); with prediction, also for tics not yet confirmed
   * (substituted all false), and again after a rollback (load).
   */
  onTic(tic: number, cmds: (TicCmd | null)[], ingame: boolean[], substituted: boolean[]): void;
}

/**
 * A game whose input is its own bytes (the extension protocol only: a
 * copy that speaks only the reference protocol cannot join it). Every copy
 * of a game must declare the same inputSize and eventBits; a copy whose
 * differ leaves with a "disconnect".
 */
export interface OpaqueGame {
  /** Bytes of input per player and tic, an integer from 1 to 64. Unchanged bytes cost nothing on the wire. */
  inputSize: number;
  /**
   * Per byte of input, the bits that are one-off events (a press, not a
   * held key): the server clears them where it repeats a late player's
   * command, and this copy puts them into its next command instead, so
   * every event runs once, about a round trip late. At most inputSize
   * bytes; missing bytes have none.
   */
  eventBits?: ArrayLike<number>;
  /** As TicCmdGame's, returning exactly inputSize bytes (start's "error" event names input otherwise). */
  input(tic: number): Uint8Array;
  /** As TicCmdGame's: inputs[p] is player p's bytes (a copy the game may keep), null where ingame[p] is false. */
  onTic(tic: number, inputs: (Uint8Array | null)[], ingame: boolean[], substituted: boolean[]): void;
}

/**
 * What start takes: the common options, and a game of either kind of
 * input. O is the type of the game's launch options: start<O> types
 * launch's and every "start" event's (a JSON value, or a Uint8Array).
 */
export type Options<O = unknown> = CommonOptions<O> & (TicCmdGame | OpaqueGame);

export interface CommonOptions<O = unknown> {
  /** URL of ticnet.wasm (default: beside ticnet.js, new URL("./ticnet.wasm", import.meta.url)). */
  wasmURL?: string;
  /** Player name, at most 29 bytes in UTF-8 (start rejects a longer one; default "Player", and inside a messenger the chat member's name, webxdc.selfName, cut to 29 bytes). */
  name?: string;
  /** Most players (an integer from 2 to 8, default 8). */
  maxPlayers?: number;
  /** Election timing: "local" for tabs, "gossip" for a chat's realtime channel (default: by channel). */
  profile?: "local" | "gossip";
  /** Connection timeout: "browser" (4 s; default "browser") or "reference" (30 s). */
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
  /**
   * Optional: a 32-bit hash of player's own part of the game state after
   * the last tic. The replay records it beside checksum, so that a
   * playback names the players whose state differs first. It costs: the
   * engine calls into the page once more for every tic run (predicted
   * tics included), and that call calls playerChecksum once per player in
   * the game.
   */
  playerChecksum?(player: number): number;
  /**
   * Optional: whether the game is over after the last tic (a score
   * reached, a timer run out), read from the game's state. Asked after
   * every onTic, predicted tics included; only the answer after a
   * confirmed tic counts, so every copy of a deterministic game ends at
   * the same tic: there, at once, without the controller or the server,
   * each gets "end" (over: true, tic: the first tic not run) and is back
   * in its lobby, and the game is left at its state after its last tic
   * (tics predicted past it are undone). endGame still works. Under the
   * reference protocol (a Chocolate Doom peer) it is ignored: that
   * protocol has no end.
   */
  over?(): boolean;
  /**
   * Optional: called after each confirmed tic, in tic order, once, with
   * the checksum after it; never for a predicted tic. With prediction the
   * game's state may be ahead of tic by then (and may yet be rolled
   * back): keep what you need per tic, and act here on what must not be
   * undone (an end screen, a result saved, an achievement).
   */
  onConfirmed?(tic: number, checksum: number): void;
  /**
   * Record the game as a replay file (default true): net.replay() returns
   * it. Every confirmed tic, with every player's command and the checksum
   * after it, and the state before the first tic and every 1 050 tics
   * after when the game gives save; up to 32 MB (the recording then
   * stops, whole). The demo's takes 10 bytes per tic per player (its bots
   * change every field of their input every tic).
   */
  record?: boolean;
  /**
   * Keep the game's states of the last 128 tics (default false; the game
   * must give save), so that at a desync this copy hands its states around
   * the first tic that differs to the page ("desyncStates"). Costs 128
   * states of memory, and a save a tic when the copy does not predict.
   */
  keepStates?: boolean;
  /**
   * Watch the game rather than play it (default false): this copy sends
   * no input and is never a player or the server; it receives the running
   * game (a state, then every tic) and runs it, and onTic, checksum and
   * the events go on as for a player. Watchers do not count against a
   * game's 16 connections; a server takes up to 128.
   */
  watch?: boolean;
  onEvent?(event: TicnetEvent<O>): void;
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
  /**
   * Input delay, in tics: an integer from 0 to 15 (default 0), or "auto",
   * under TICNET_1. Each tic's input is taken that many tics before the
   * tic is due, so the local player's input shows that much later and
   * reaches the server that much earlier (fewer rollbacks and fewer
   * substituted commands on a slow channel; GGRS's trade). When every
   * copy has a delay, the server sends each tic as soon as its commands
   * are in: with the round trip in tics as the delay, a predicting game
   * runs each tic once. "auto": the game's server chooses the delay that
   * covers the longest round trip it measures, between minInputDelay and
   * maxInputDelay, and changes it as the round trips do (an
   * "inputDelay" event; stats().inputDelay).
   */
  inputDelay?: number | "auto";
  /** With inputDelay "auto", the least delay: 0 to 15 tics (default 0). */
  minInputDelay?: number;
  /**
   * With inputDelay "auto", the most delay: 0 to 15 tics (default 6: 171
   * ms at 35 tics a second, a round trip of 85 ms each way).
   */
  maxInputDelay?: number;
  /**
   * Tics a second, an integer from 10 to 60 (default 35), under TICNET_1:
   * the server's rate is the game's, which every copy gets in its "start"
   * event; a game under the reference protocol runs 35. input and onTic
   * are called this often; fraction() follows it.
   */
  ticRate?: number;
}

export interface Stats {
  role: "undecided" | "server" | "client";
  uid: number;
  /** The players' names, by player number ("" for a number no one plays): the lobby's, in a game (TICNET_1) the roster's, on every copy; null before this copy knows them. */
  players: string[] | null;
  gametic: number;
  recvtic: number;
  maketic: number;
  /** Round trip from building a command to receiving its tic, ms. */
  rttMS: number;
  /** The tics of input delay this copy takes its input with: inputDelay, or with "auto" its server's choice. */
  inputDelay: number;
  protocol: string;
  /** Frames and bytes this copy's netcode received and sent, since start. */
  framesIn: number;
  framesOut: number;
  bytesIn: number;
  bytesOut: number;
  /** The same, a second, over the last second. */
  framesInPerSec: number;
  framesOutPerSec: number;
  bytesInPerSec: number;
  bytesOutPerSec: number;
  dropped: number;
  /** Frames whose authentication did not check (a chat member's forgery under a player's or the server's UID) or that came before (a replay, the channel's duplicate): dropped before anything read them, counted in dropped too. A watcher counts as well the attests whose signature did not check, and each time the tics it held did not match the chain the server signed (it drops them and gets them again). */
  forged: number;
  resends: number;
  substituted: number;
  /** Netcode time per pass of the net loop (every 5 ms), µs: median and 99th percentile of the last 1024 passes. */
  passMedianUS: number;
  passP99US: number;
  /** Mean netcode time per pass, µs: finer than the median, as the page's clock ticks in 100 µs (5 µs when cross-origin isolated). */
  passMeanUS: number;
  /**
   * Netcode time per tic run, µs: median and 99th percentile of the last 1024 passes that ran tics, each pass's time over the tics it ran.
   * All five exclude the time inside your callbacks (input, onTic, checksum, playerChecksum, save, load, each from the call to its return);
   * they include the channel's sending (postMessage) and the event listeners (which run only when something happens).
   */
  ticMedianUS: number;
  ticP99US: number;
  /** Bytes of game state this copy received (it joined a game in progress). */
  transferBytesIn: number;
  /**
   * When this copy joined a game in progress: ms from the server's word
   * that it joins to the whole state (transferMS) and to playing (joinMS);
   * 0 before. Both are set when its "join" event comes.
   */
  transferMS: number;
  joinMS: number;
  /** Most tics one pass runs: learnt from what a tic costs, so that catching up does at most ~40 ms of game work at a time. */
  ticsPerUpdate: number;
  /** What a tic costs your game, as learnt, µs (0 before the first). */
  ticCostUS: number;
  /** The times this copy's game went on under a new server after its server left ("resumed"). */
  migrations: number;
  /** Prediction: the first tic not run (gametic: not confirmed); the tics run ahead, the rollbacks, and the predicted tics they undid. */
  predictedTic: number;
  predicted: number;
  rollbacks: number;
  rolledBack: number;
  /** The size of the replay net.replay() returns (0: none); replayStopped: it reached its bound (32 MB) and records no more. */
  replayBytes: number;
  replayStopped: boolean;
  /** Every player's network, in player order, as the server measures it and tells every copy about once a second (TICNET_1); null in a reference game and until a game's first report. */
  peers: Peer[] | null;
  /** How many copies watch the game (start's watch, or a copy that found the game full), as the server counts them with the players' figures (TICNET_1; 0 until the first report). */
  watchers: number;
  /** The watchers' names, in the order they came to watch, as the server last listed them: within 2 s of a change (TICNET_1; empty until the first list). */
  watcherNames: string[];
  /**
   * The channel's shim, since the page loaded: frames and bytes it
   * received (for this copy) and sent; frames it dropped (its queue was
   * full), filtered (for another copy) and refused to send (oversize).
   */
  channel: {
    kind: "webxdc" | "broadcast"; framesIn: number; bytesIn: number; framesOut: number; bytesOut: number;
    dropped: number; filtered: number; oversize: number;
  };
}

/** One player's network (Stats.peers). */
export interface Peer {
  player: number;
  name: string;
  /** The round trip between the server and the player's copy, ms: from a tic sent to the command that acknowledges it (up to a tic more than the channel's); -1 before one was measured. */
  rttMS: number;
  /** How early the player's commands reached the server before they were due, ms, at worst over the last few tics (negative: late); ahead: the same in whole tics, for its newest command. */
  marginMS: number;
  ahead: number;
  /** The share of the player's packets lost on the way to the server, 0 to 1. */
  loss: number;
  /** The player's commands the server replaced (they came too late, or never) in the tics this copy received this game. */
  substituted: number;
  /** The tics of input delay the player builds with. */
  inputDelay: number;
}

export interface Session<O = unknown> {
  /**
   * Launches the game with opts (every copy's "start" event brings them):
   * only the lobby's controller may; elsewhere, and on bad opts, it
   * rejects with the reason.
   */
  launch(opts?: LaunchOptions<O>): Promise<void>;
  /** Leaves the game cleanly: start may then start this page's next session. */
  leave(): void;
  /**
   * Ends the game (TICNET_1 only): on the lobby's controller every copy
   * gets "end" and is back in its lobby; on another copy the controller is
   * asked ("endAsked") and decides.
   */
  endGame(): void;
  stats(): Stats;
  /**
   * This copy's replay file of its game so far (of its last game, until
   * the next records its first tic), a new Uint8Array: save it, or play
   * it back with playReplay. It holds the tics this copy ran, from the
   * first (a copy that joined in progress: from the state it was given,
   * which it starts with). Migration and hand-off keep it whole; a copy
   * that has to join its game again (sent away after sleeping past the
   * tic window, or its side of a healed partition) starts a new one where
   * it joins. null when this copy records none (record: false, or no game
   * yet).
   */
  replay(): Uint8Array | null;
  /**
   * How far the game is from its last tic to the next, 0 to 1, by the
   * clock (the game's tic rate): call it when you draw, and draw the state
   * between the last two tics at this fraction for smooth motion.
   */
  fraction(): number;
  /** Calls fn for every event of kind (after options.onEvent). */
  on<K extends EventKind>(kind: K, fn: (e: EventOf<K, O>) => void): void;
  /** Stops calling fn, as on added it. */
  off<K extends EventKind>(kind: K, fn: (e: EventOf<K, O>) => void): void;
}

/**
 * Starts ticnet: loads, from beside ticnet.js, the channel's shim (after
 * the messenger's webxdc.js, beside the page, when there is one) and the
 * wasm (Go's wasm_exec.js, then ticnet.wasm or options.wasmURL), joins the
 * election, and reports through options.onEvent. Rejects, with a message
 * that names the option, on an unknown option or one out of range, and on
 * missing callbacks. A page runs one session at a time: start rejects
 * while its last runs, and after that one's leave() or its "error" event
 * starts the next (a reload is not needed; the ended Session's launch,
 * leave and endGame then do nothing). O types the launch options:
 * start<{ speed: number }>(...) gives launch and every "start" event
 * options of that type.
 */
export function start<O = unknown>(options: Options<O>): Promise<Session<O>>;

/** The game, as start takes it (save and load are required), and the test's settings. */
export type SyncTestOptions = (TicCmdGame | OpaqueGame) & {
  checksum(): number;
  save(): Uint8Array;
  load(state: Uint8Array): void;
  /** Tics to run (default 1000), tics run again after each (default 8, at most 64), players (default 2). */
  tics?: number;
  rollback?: number;
  players?: number;
  wasmURL?: string;
};

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
 * reports the first tic that ran differently. Run it before start. Joins
 * no channel: it loads no shim.
 */
export function syncTest(options: SyncTestOptions): Promise<SyncTestResult>;

/** The game a replay plays back into: its callbacks as start takes them (input excepted), of either kind of input. */
export type ReplayGame = (Pick<TicCmdGame, "inputSize" | "onTic"> | Pick<OpaqueGame, "inputSize" | "onTic">) & {
  checksum(): number;
  /** With load: the replay starts from its first snapshot (a late joiner's replay needs it), and seek can go back. */
  save?(): Uint8Array;
  load?(state: Uint8Array): void;
  /** Names the players whose state differs at a mismatch, where the replay recorded theirs. */
  playerChecksum?(player: number): number;
};

/** What a replay says of its game before it plays (setup's argument): Replay's facts but end and snapshots. */
export interface ReplaySetup<O = unknown> {
  /** The first tic recorded (0, or the tic a late copy joined at). */
  start: number;
  players: string[];
  ticRate: number;
  seed: number;
  options?: O;
  protocol: string;
  inputSize: number;
}

/** What playReplay takes: the game, and how to play. O: the type of the recorded launch options. */
export type ReplayOptions<O = unknown> = ReplayGame & {
  /**
   * Sets the game up from the replay's facts (seed, options: what a
   * "start" event brings), called once, before any other callback, the
   * first snapshot's load included: a late joiner's replay starts from
   * that snapshot, whose load then replaces the state set up here.
   */
  setup?(facts: ReplaySetup<O>): void;
  /** A multiple of the recorded tic rate, 0 or more (default 1); 0: as fast as the page allows (40 ms of game work per pass). */
  speed?: number;
  /** Start paused (default false): resume() plays. */
  paused?: boolean;
  wasmURL?: string;
  onEvent?(event: ReplayEvent): void;
};

/** A tic of the playback ran (every tic, a seek's included): tic, of the replay's start to end. */
export interface ReplayProgressEvent { kind: "progress"; tic: number; start: number; end: number }
/**
 * The first recorded checksum the game did not give: after tic, got
 * instead of want; players are those whose own checksums differ
 * (playerChecksum, where the replay has them). It comes before any later
 * tic runs: pause() here stops the game at that tic.
 */
export interface ReplayMismatchEvent { kind: "mismatch"; tic: number; players: number[]; want: number; got: number }
/** The playback reached the end: tics onTic ran (a seek's included), checksums compared, of which differed, and the first that did. */
export interface ReplayDoneEvent {
  kind: "done"; tics: number; checked: number; mismatches: number;
  mismatch: Omit<ReplayMismatchEvent, "kind"> | null;
}
export type ReplayEvent = ReplayProgressEvent | ReplayMismatchEvent | ReplayDoneEvent | GameErrorEvent;
export type ReplayEventKind = ReplayEvent["kind"];
export type ReplayEventOf<K extends ReplayEventKind> = Extract<ReplayEvent, { kind: K }>;

/** A replay being played back: its facts, and the controls. */
export interface Replay<O = unknown> {
  /** The first tic recorded (0, or the tic a late copy joined at), and one past the last. */
  readonly start: number;
  readonly end: number;
  /** The players' names, by player number (none in the replay of a copy that joined in progress: it saw no lobby). */
  readonly players: string[];
  /** The recorded game's tics a second, and the seed and options it was launched with (as its start event had them). */
  readonly ticRate: number;
  readonly seed: number;
  readonly options?: O;
  readonly protocol: string;
  /** Bytes of input per player; 0: Doom's ticcmd. */
  readonly inputSize: number;
  /** The tics seek can load a state at. */
  readonly snapshots: number[];
  /** The next tic to run: the game's state is the state before it. */
  tic(): number;
  /** What the playback ran and compared so far. */
  result(): Omit<ReplayDoneEvent, "kind"> & { done: boolean };
  /** Sets the game at tic (the state before it), from the newest snapshot at or before it; throws when it cannot. */
  seek(tic: number): void;
  pause(): void;
  resume(): void;
  paused(): boolean;
  /** A multiple of the recorded tic rate; 0: as fast as the page allows. */
  setSpeed(speed: number): void;
  /** 0 to 1 from the last tic to the next at the playback's pace (1 when it stands): draw between them. */
  fraction(): number;
  on<K extends ReplayEventKind>(kind: K, fn: (e: ReplayEventOf<K>) => void): void;
  off<K extends ReplayEventKind>(kind: K, fn: (e: ReplayEventOf<K>) => void): void;
  /** Stops the playback and frees it. */
  close(): void;
}

/**
 * Plays a replay file (Session.replay()'s bytes) back into a game, in tic
 * order, at speed, comparing every recorded checksum. Set the game up in
 * options.setup, which runs before any load: by the time the promise
 * resolves, the first snapshot's load has run, and a game made anew
 * after the await would lose that state. Resolves once the game stands
 * at the replay's first tic; the first tic runs on the next task (add
 * listeners right after the await). Rejects on bytes that are not a
 * whole replay (not one, cut short), a replay of another kind of input
 * (inputSize), a setup that throws, one that starts from a snapshot
 * played into a game without load, and a state load refuses. Joins no
 * channel: it loads no shim.
 */
export function playReplay<O = unknown>(bytes: Uint8Array | ArrayBuffer, options: ReplayOptions<O>): Promise<Replay<O>>;

/** Where two states differ (diffStates). */
export interface StateDiff {
  /** Every byte the same, and as many. */
  same: boolean;
  /** How many bytes differ, and where: runs of them (past the shorter state's end, every byte). */
  bytes: number;
  runs: { offset: number; length: number }[];
  /** The fields whose values differ, as describe reads the states; null without describe. */
  fields: { name: string; a: unknown; b: unknown }[] | null;
}

/**
 * Compares two states the game's save returned (a "desyncStates" event's
 * after, beside a copy of the majority's): the bytes that differ, and,
 * given describe (the game's reading of a state: a flat object of field
 * name to value), the fields. Runs no wasm, joins no channel.
 */
export function diffStates(a: Uint8Array, b: Uint8Array, describe?: (state: Uint8Array) => Record<string, unknown>): StateDiff;
