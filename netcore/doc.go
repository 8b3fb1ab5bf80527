// Package netcore is ticnet's lockstep engine: the server, the client
// (send and receive windows, clock sync), and the game loop that feeds a
// tic.Game its tics, over connections of package reliable.
//
// The server is components: the lobby (server_lobby.go), the slots and the
// phase of each (slot.go, slot_phase.go), the players' commands
// (server_commands.go), the relay of the protocol the game runs, chosen at
// its launch (relay.go: relay_reference.go, relay_ticnet*.go), late joins
// and rejoins (server_join.go, server_rejoin.go), host migration
// (server_migrate*.go) and the replay (replay.go, which records with
// package replay).
//
// The client is components too: its phase, moved by one function
// (client_phase.go), the handshake (client_handshake.go), the send and
// receive windows (client_send.go, client_recv.go), the clock of the
// protocol the game runs, chosen when it starts (clock.go:
// clock_reference.go, clock_ticnet.go), the runner, the one caller of the
// Game, which runs the requests of its tic.Timeline, with prediction
// (runner.go, runner_predict.go), late join
// (client_join.go), host migration (client_migrate.go), the game's end
// (end.go) and the replay (replay.go).
//
// Both ends keep, per peer, what package reliable provides: the
// connection (reliable.Conn: the reference's reliable sub-protocol,
// keepalives, timeout, disconnect, and the extension's connection
// identity on its frames), the round trip, jitter and loss of its
// channel, and the window of its tics that finds gaps and asks for them
// again. Each end decides what its connection is (the handshake, the
// identity it names, its resend period); the connection changes its own
// state.
//
// It is sans-IO. Nothing here reads a clock, sleeps, starts a goroutine or
// touches syscall/js: every entry point takes the current time in
// milliseconds from its caller, packets come and go through a
// link.Transport, and what happened is returned as Events instead of being
// called back or polled for: an engine's end carries its Cause, typed for
// the code above (its Reason is for people, and decides nothing), and a
// server that leaves is reported when its word comes (EventServerLeaving).
// The same engine runs under a simulated network in tests (package
// simnet), a timer in the browser, and a UDP socket in the native tools.
//
// The one piece of IO that lives here is UDP, the native transport (not
// built for js): its reader goroutine feeds a queue that Recv drains without
// blocking, so the engine above it stays sans-IO, and Close stops it.
package netcore
