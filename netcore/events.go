package netcore

import (
	"strconv"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/wire"
)

// EventKind says what happened.
type EventKind uint8

const (
	// EventConnected: the client's connection was accepted; Protocol says
	// which protocol it speaks.
	EventConnected EventKind = iota + 1
	// EventLobbyChanged: the lobby changed: Lobby is the new one.
	EventLobbyChanged
	// EventGameStarted: the game started with Settings; a client's says
	// how it starts there (Start).
	EventGameStarted
	// EventPlayerJoined: Player joined (server side: a client connected).
	EventPlayerJoined
	// EventPlayerLeft: Player left the game; Reason says why.
	EventPlayerLeft
	// EventDesyncSuspected: the copies of the game differ after running
	// Tic (the first tic whose result differs, as far as the check can
	// tell). Players lists the players whose copy differs, where known.
	EventDesyncSuspected
	// EventDisconnected: this endpoint's connection ended; Cause says why,
	// Reason says it to people.
	EventDisconnected
	// EventRejected: the server refused the client (Cause: CauseRejected);
	// Reason is its message.
	EventRejected
	// EventConsoleMessage: the server sent text (Reason).
	EventConsoleMessage
	// EventLaunched: the controller launched the game; it starts when every
	// client is ready.
	EventLaunched
	// EventPlayerEntered: Player, who joined the game in progress, plays
	// from Tic on (the same tic on every copy).
	EventPlayerEntered
	// EventCatchUp: this copy, joining a game in progress, has Done of
	// Total: bytes of the game state while it arrives (Tic is the tic it
	// starts from), then tics run of those to run to catch up.
	EventCatchUp
	// EventResumed: the game goes on under a new server from Tic on
	// (client: its Resume came; server: it resumed the game).
	EventResumed
	// EventEndAsked: Player asks to end the game (on the controller's
	// client, which may end it with RequestEnd, and on the server).
	EventEndAsked
	// EventGameEnded: the game ended before Tic, the same on every copy;
	// the copy is back in the lobby, from which the controller may launch
	// again.
	EventGameEnded
	// EventServerLeaving: the server said it leaves (its Leaving, which
	// goes with its DISCONNECT and may come after it): the stream stopped
	// before Tic, Player leaves the game (-1: none), and Addr is the copy
	// it handed the game to (0: none, the next is elected). The client's
	// EventDisconnected (CauseServerLeft) follows, unless its DISCONNECT
	// came first.
	EventServerLeaving
	// EventRoster: the server sent the game's roster (Roster): the game's
	// identity and its players, from which a copy takes the game over.
	// A client's roster is the last one until its game ends or starts
	// again.
	EventRoster
	// EventDesyncVerdict: a client heard the server's verdict on Tic,
	// whose checksums differ (extension): Players are those whose copies
	// diverged from the majority's (every player's when there is none).
	// The server's own EventDesyncSuspected says the same where it runs.
	EventDesyncVerdict
	// EventReattachable: whether the client can go on with its game under
	// a new server (CanReattach) changed during the Update; On says
	// whether it can when Update returns. It comes first among the
	// Update's events, so that the code above, deciding on any of them
	// whether the game moves to another server, decides on what the
	// client can do after the Update, which is when it would act.
	EventReattachable
	// EventInputDelay: the client builds its commands Delay tics ahead
	// from Tic on, as the server chose (AutoDelay).
	EventInputDelay
	// EventPeers: the server told every player's figures (Peers, in
	// player order; the extension, about once a second).
	EventPeers
	// EventRepaired: Player's copy diverged and was set right: it loaded
	// the majority's state before Tic, Bytes long, MS after the server
	// asked for it (the extension; every client hears of every repair).
	EventRepaired
	// EventDesyncStates: the server's first verdict of the game named Tic,
	// and this copy kept its states around it (ClientConfig.KeepStates):
	// States, this copy's, to compare with a copy's of the majority.
	EventDesyncStates
)

var eventNames = [...]string{
	EventConnected: "connected", EventLobbyChanged: "lobby changed", EventGameStarted: "game started",
	EventPlayerJoined: "player joined", EventPlayerLeft: "player left",
	EventDesyncSuspected: "desync suspected", EventDisconnected: "disconnected",
	EventRejected: "rejected", EventConsoleMessage: "console message", EventLaunched: "launched",
	EventPlayerEntered: "player entered", EventCatchUp: "catch up", EventResumed: "resumed",
	EventEndAsked: "end asked", EventGameEnded: "game ended", EventServerLeaving: "server leaving",
	EventRoster: "roster", EventDesyncVerdict: "desync verdict", EventReattachable: "reattachable",
	EventInputDelay: "input delay", EventPeers: "peers", EventRepaired: "repaired",
	EventDesyncStates: "desync states",
}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// Event is something that happened, returned by Update.
type Event struct {
	Kind     EventKind
	Player   int       // player number, where one is concerned (-1: none)
	Addr     link.Addr // peer concerned, where one is
	Name     string    // player name, where one is concerned
	Reason   string    // for people, never for code: why, or the server's text
	Cause    Cause     // why the engine ended (EventDisconnected, EventRejected)
	Tic      uint32
	Players  []int // players concerned (desync)
	Protocol string
	// Done and Total: EventCatchUp's progress, and what it counts (Unit:
	// "bytes" or "tics").
	Done, Total int64
	Unit        string
	// Start: a client's EventGameStarted, how the game starts at it.
	Start *Start
	// Lobby: EventLobbyChanged's new lobby.
	Lobby *Lobby
	// Roster: EventRoster's roster.
	Roster *wire.Roster
	// Over: EventGameEnded's game ended itself (tic.Ending), not at a
	// player's request.
	Over bool
	// On: EventReattachable's client can reattach.
	On bool
	// Delay: EventInputDelay's input delay, in tics.
	Delay int
	// Peers: EventPeers' figures, valid until the client's next
	// EventPeers (copy what you keep); Watchers: how many copies watch
	// the game, as the server counts them with the figures;
	// WatcherNames: their names, as the server last listed them
	// (wire.WatcherList: within WatcherListMS of a change; nil until the
	// first list), valid until the next EventPeers too.
	Peers        []Peer
	Watchers     int
	WatcherNames []string
	// Bytes and MS: EventRepaired's state size and time.
	Bytes, MS int64
	// States: EventDesyncStates' states.
	States *DesyncStates
}

// Start is how a game starts at a client (its EventGameStarted): what the
// copy above sets its game up with, and whether it joins a game in
// progress, for the code above to act on (the event's Reason says
// "rejoined" to people).
type Start struct {
	// Setup is the game's setup under the extension protocol (zero under
	// the reference): its input layout, tic rate, and the seed and
	// options its controller launched it with.
	Setup   wire.GameSetup
	TicRate int // the game's tics per second
	// Joined: the copy joins the game in progress from the event's Tic
	// (JoinStart); Rejoined: with its player back, by its rejoin token.
	Joined, Rejoined bool
}

func (e Event) String() string {
	s := e.Kind.String()
	if e.Player >= 0 && (e.Kind == EventPlayerJoined || e.Kind == EventPlayerLeft || e.Kind == EventDesyncSuspected || e.Kind == EventDesyncVerdict ||
		e.Kind == EventPlayerEntered) {
		s += " player=" + strconv.Itoa(e.Player)
	}
	if e.Kind == EventReattachable {
		s += " " + strconv.FormatBool(e.On)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// Reasons a connection or a player ends.
const (
	ReasonTimeout      = reliable.ReasonTimeout
	ReasonLeft         = reliable.ReasonLeft
	ReasonServerLeft   = "server left"
	ReasonKicked       = "disconnected by the server"
	ReasonNoResponse   = "no response from server"
	ReasonFellBehind   = "fell too far behind"
	ReasonGameAborted  = "game startup aborted"
	ReasonGameEnded    = "game ended"
	ReasonUnknownProto = "server chose a protocol this client does not speak"
	// ReasonReattachRefused: the server that took the game over cannot
	// take this copy back as it is (it holds tics the game replaced, or
	// its player is gone): it joins again, with its token.
	ReasonReattachRefused = "the new server cannot take this copy back as it is"
	// ReasonResuming: a copy that connects while the game is being taken
	// over is asked to try again in a moment.
	ReasonResuming = "the game is changing servers"
	// ReasonReconnected: the copy connected again from its address (a
	// new connection's identity, under the extension): it gave up the
	// connection that ends.
	ReasonReconnected = "connected again"
)

// ReasonGameOver is EventGameEnded's reason when the game ended itself
// (tic.Ending), not at a player's request.
const ReasonGameOver = "the game ended itself"
