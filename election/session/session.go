// Package session is one copy of a game on a broadcast channel: the
// election that decides who serves, the router that sorts the channel's
// frames, and the lockstep engine in the role the election gave this copy
// (server plus its own client, or client). It is what the browser binding
// drives, and like the packages below it, it is sans-IO: frames come in
// through Deliver, go out through AppendOutgoing, time comes in as an
// argument, and what happened comes back as events.
package session

import (
	"github.com/ticnet/ticnet/netcore/link"
)

// ServerUID is the server's UID on the channel, as VectorDoom has it.
const ServerUID link.Addr = 1

// Limits on what the session holds for the engine between two Updates.
const (
	maxInbox      = 1024
	maxInboxBytes = 4 << 20
)

// Role is what the election made of this copy.
type Role string

const (
	RoleUndecided Role = "undecided"
	RoleServer    Role = "server"
	RoleClient    Role = "client"
)

// Event is something that happened, shaped for the JS API: which fields
// each kind carries is EventKinds' (schema.go).
type Event struct {
	Kind      string       `json:"kind"`
	Role      Role         `json:"role,omitempty"`
	UID       uint32       `json:"uid,omitempty"`
	ServerUID uint32       `json:"serverUID,omitempty"`
	Player    *int         `json:"player,omitempty"`
	Name      string       `json:"name,omitempty"`
	Reason    string       `json:"reason,omitempty"`
	Tic       uint32       `json:"tic,omitempty"`
	Players   []int        `json:"players,omitempty"`
	Lobby     *LobbyReport `json:"lobby,omitempty"`
	Protocol  string       `json:"protocol,omitempty"`
	// Joined: "start" of a game this copy joins in progress, from Tic.
	Joined bool `json:"joined,omitempty"`
	// Rejoined: "start" of a game this copy joins with its player back
	// (its rejoin token).
	Rejoined bool `json:"rejoined,omitempty"`
	// "catchup": Done of Total Unit ("bytes" of the game state, then
	// "tics" run to catch up).
	Done  int64  `json:"done,omitempty"`
	Total int64  `json:"total,omitempty"`
	Unit  string `json:"unit,omitempty"`
	// GapMS: "resumed", how long the game stood still at this copy: from
	// the last tic it ran under its old server to the resume, when it
	// runs tics again. A server that falls silent is found lost only a
	// timeout later; the game stood still all that while.
	GapMS int64 `json:"gapMS,omitempty"`
	// "start": the game's tics per second, and the seed and options its
	// controller launched it with (netcore.Client.Setup).
	TicRate int    `json:"ticRate,omitempty"`
	Seed    uint32 `json:"seed,omitempty"`
	Options []byte `json:"options,omitempty"` // base64 in JSON
	// "error" (the browser binding's): the game's callback that threw, and
	// the exception's message and stack ("" for a failure of the channel).
	Callback string `json:"callback,omitempty"`
	Message  string `json:"message,omitempty"`
	Stack    string `json:"stack,omitempty"`
	// Over: "end" of a game that ended itself (its over callback), not at
	// a player's request.
	Over bool `json:"over,omitempty"`
	// Diverged: "desync" that names this copy's player among Players:
	// this copy's game is the one that diverged; "repaired" of this
	// copy's player: its game's state was replaced.
	Diverged bool `json:"diverged,omitempty"`
	// Delay: "inputDelay", the tics of input delay this copy builds its
	// input with from Tic on, as its server chose (inputDelay "auto").
	Delay int `json:"delay,omitempty"`
	// Bytes and MS: "repaired", the size of the state the diverged copy
	// loaded (the state before Tic) and how long the repair took, from
	// the server's request for it to that copy's word that it loaded it.
	Bytes int64 `json:"bytes,omitempty"`
	MS    int64 `json:"ms,omitempty"`
	// Before and After: "desyncStates", this copy's game states before and
	// after Tic, the first tic of the game's first desync
	// (Config.KeepStates); Diverged: this copy is the one that diverged;
	// Fetched: the states are a copy of the majority's, which the copy
	// that diverged fetched (its own came first).
	Before  []byte `json:"before,omitempty"` // base64 in JSON
	After   []byte `json:"after,omitempty"`
	Fetched bool   `json:"fetched,omitempty"`
}

// LobbyReport is the game's players as the JS API shows them: the
// lobby's while the copy waits in it, the roster's in a game (after each
// change: a player joined, left or came back, or the controller changed
// with a migration). Controller: this copy's player may launch, and end
// the game.
type LobbyReport struct {
	Players    []LobbyPlayer `json:"players"`
	Controller bool          `json:"controller"`
	Player     int           `json:"player"`
	MaxPlayers int           `json:"maxPlayers"`
}

// LobbyPlayer is one line of the lobby, or one player of a game.
type LobbyPlayer struct {
	Name   string `json:"name"`
	Addr   string `json:"addr"` // in the lobby; "" in a game (its roster has none)
	Player int    `json:"player"`
}

// Stats are the session's live numbers.
//
// Its fields are what the page's stats() returns (but channel, which
// ticnet.js adds from the shim), by their JSON names; a ts tag gives the
// type ticnet.d.ts declares where Go's does not say it (a number, a
// string, a boolean). schema_test.go holds ticnet.d.ts's Stats to them.
type Stats struct {
	Role Role   `json:"role" ts:"\"undecided\" | \"server\" | \"client\""`
	UID  uint32 `json:"uid"`
	// Players are the players' names by player number ("" for a number no
	// one plays): the lobby's, or in a game the roster's (LobbyReport);
	// null before this copy knows them.
	Players []string `json:"players" ts:"string[] | null"`
	Gametic uint32   `json:"gametic"`
	Recvtic uint32   `json:"recvtic"`
	Maketic uint32   `json:"maketic"`
	RTTMS   int      `json:"rttMS"`
	// InputDelay is the tics of input delay this copy builds its input
	// with: its inputDelay, or with "auto" its server's choice.
	InputDelay      int    `json:"inputDelay"`
	Protocol        string `json:"protocol"`
	FramesIn        int64  `json:"framesIn"`
	FramesOut       int64  `json:"framesOut"`
	BytesIn         int64  `json:"bytesIn"`
	BytesOut        int64  `json:"bytesOut"`
	FramesInPerSec  int64  `json:"framesInPerSec"`
	FramesOutPerSec int64  `json:"framesOutPerSec"`
	BytesInPerSec   int64  `json:"bytesInPerSec"`
	BytesOutPerSec  int64  `json:"bytesOutPerSec"`
	Dropped         int64  `json:"dropped"`
	// Forged counts the frames of this copy's connections (its client's,
	// and its server's when it serves) whose authentication did not
	// check: a member's forgery under a player's or the server's UID, or
	// a frame damaged; and those that came before (the channel's
	// duplicates, or a member's replays). Each was dropped before anything
	// read it; Dropped counts them too. A watcher counts as well the
	// attests whose signature did not check, and each time the tics it
	// held did not match the chain the server signed (netcore's
	// client_check.go).
	Forged      int64 `json:"forged"`
	Resends     int64 `json:"resends"`
	Substituted int64 `json:"substituted"`
	// The netcode's time, in µs, which the caller measures (the browser
	// binding: package wasm): per pass of its net loop (median, 99th
	// percentile, mean) over its last 1024 passes; and per tic run (median,
	// 99th percentile), which is a pass's time over the tics it ran, over
	// its last 1024 passes that ran tics (a pass that ran none, such as a
	// client's that built and sent its command between two tics, counts per
	// pass only). A pass's netcode time is its time by the page's clock less
	// the time inside the game's callbacks: input, onTic, checksum,
	// playerChecksum, save and load, each from the call into JS to its
	// return (the page's function, the JS API's wrapper around it: its
	// checks, and onTic's decoding of the commands into the objects the page
	// gets; and that one crossing). It includes the session (election,
	// engine, prediction's bookkeeping), Go's side of the callbacks (copying
	// commands, states and checksums across), pulling frames from the
	// channel's shim and pushing them to it, the shim's sending (postMessage
	// on a BroadcastChannel, the messenger's send in WebXDC), and the events
	// handed to the page, its listeners included (none in a steady game).
	// The page's clock is coarse (Chromium: 100 µs, 5 µs when cross-origin
	// isolated), so the mean is the finer number.
	PassMedianUS int64   `json:"passMedianUS"`
	PassP99US    int64   `json:"passP99US"`
	PassMeanUS   float64 `json:"passMeanUS"`
	TicMedianUS  float64 `json:"ticMedianUS"`
	TicP99US     float64 `json:"ticP99US"`
	// TransferBytesIn is the data of the bulk streams this copy's client
	// received (a game state, when it joined a game in progress).
	TransferBytesIn int64 `json:"transferBytesIn"`
	// TransferMS is how long the game state took to arrive when this copy
	// joined a game in progress, from the server's word that it joins to
	// the last byte; JoinMS is from that word to playing. Zero until then.
	TransferMS int64 `json:"transferMS"`
	JoinMS     int64 `json:"joinMS"`
	// TicsPerUpdate is how many tics one pass may run at most: what keeps
	// a catching-up page responsive (see SetGameTime).
	TicsPerUpdate int `json:"ticsPerUpdate"`
	// TicCostUS is what a tic costs the game, as learnt (µs; 0: not yet).
	TicCostUS int64 `json:"ticCostUS"`
	// Migrations counts the times this copy's game went on under a new
	// server after its server left.
	Migrations int64 `json:"migrations"`
	// PredictedTic is the first tic the game has not run, predicted tics
	// included (Gametic: confirmed only); Predicted counts the tics run
	// ahead of confirmation, Rollbacks the times a confirmed tic differed
	// from the prediction, RolledBack the predicted tics they undid.
	PredictedTic uint32 `json:"predictedTic"`
	Predicted    int64  `json:"predicted"`
	Rollbacks    int64  `json:"rollbacks"`
	RolledBack   int64  `json:"rolledBack"`
	// ReplayBytes is the size of this copy's replay (Session.Replay); 0
	// when it records none. ReplayStopped: the replay reached its size
	// bound and records no more.
	ReplayBytes   int  `json:"replayBytes"`
	ReplayStopped bool `json:"replayStopped"`
	// Peers is every player's network, in player order, as the server
	// measures it and tells every copy about once a second (TICNET_1;
	// null in a reference game, and until the first report of a game).
	Peers []Peer `json:"peers" ts:"Peer[] | null"`
	// Watchers is how many copies watch the game (start's watch, or a
	// copy that found the game full), as the server counts them with
	// the players' figures (TICNET_1; 0 until the first report), and
	// WatcherNames their names, in the order they came to watch, as the
	// server last listed them (within 2 s of a change; empty until the
	// first list).
	Watchers     int      `json:"watchers"`
	WatcherNames []string `json:"watcherNames" ts:"string[]"`
}

func intp(v int) *int { return &v }
