// Package election decides which copy of a game on a broadcast channel is
// the server, and sorts the channel's frames: election messages to the
// election, game frames for this copy to the engine, everything else
// dropped and counted. It is sans-IO: time comes in as an argument, frames
// go out through the caller, nothing here reads a clock or starts a
// goroutine.
//
// # Protocol
//
// The bytes are VectorDoom's, so the two can share a channel:
//
//   - request, "who is the server?": exactly 4 bytes, 42 42 42 42;
//   - answer and server beacon: exactly 16 bytes, 43 43 43 43, then 4 bytes
//     VectorDoom leaves unused, then the server's start time (ms since the
//     epoch, Date.now() at page load) as a float64, little-endian.
//
// ticnet puts a tie-break in the 4 unused bytes (u32 LE, random, never 0):
// copies compare (start time, tie-break), lower first, so even copies that
// started in the same millisecond agree on one winner. The tie-break doubles
// as the server's game id: a ticnet server sends its broadcasts from it, so
// that a client never takes another server's tics for its own.
//
// Copies that have not decided, and clients, announce themselves in a frame
// VectorDoom ignores, addressed to CandidateAddr, a UID no peer uses:
// [to = 0xFFFFFFFF][from = UID]["TNE1"][start time f64 LE][tie-break u32 LE],
// then, each optional in turn, [game u32 LE] (the game it plays, 0 for
// none), [flags u8] (1: it looks for its game's next server; 2: its page
// is hidden; 4: it follows an heir; 8: it leaves; 16: it watches and
// never serves) and, with flag 4 only, [heir u32 LE]
// (the UID of the copy it follows). Every copy thus knows the others'
// start times, which is what lets the survivors of a server that left
// pick the earliest of them at once.
//
// # Rules
//
//   - A copy sends a request at start and every RequestPeriodMS until it
//     decides; a server answers every request at once and beacons every
//     BeaconPeriodMS.
//   - A copy that hears a server while undecided joins it at once.
//   - A copy that hears no server declares itself server once it has waited
//     WaitMS and no live candidate it knows of comes before it; if one does,
//     it waits for that one's beacon (and forgets it if it falls silent).
//     A server heard within CandidateTTLMS counts as a live candidate: a
//     client still following a server that left, which hears the new one,
//     joins it when it drops the old one instead of serving beside it.
//   - A server in its lobby that hears a server before it steps down and
//     joins it; its clients, hearing the earlier server too, follow. Once a
//     game runs, both keep running and the split is reported.
//   - A client that hears nothing from its server for ServerTimeoutMS (or
//     whose engine says the server is gone) drops it; the survivors elect
//     again among the candidates they know, waiting only ReelectWaitMS.
//     The server just lost is no candidate, though its last frames may
//     still come. A copy that entered the game in progress less than two
//     AnnouncePeriodMS ago (EnteredGame) may not know every copy of it
//     yet: it does not serve, and follows the one that does.
//   - A copy that watches (Config.Watch) never serves, and no copy waits
//     for it or follows it: it waits for a server as long as it takes.
//   - A copy that leaves says so (Leave): the others forget it at once,
//     rather than follow it, silent, for CandidateTTLMS.
//   - A copy that lost its game's server (SetGame) looks among the copies
//     of that game only, and says so in its announcements. It follows the
//     one that comes first at once, before that one serves, so that its
//     client reattaches while that copy finds the server gone too; it
//     says it is looking until it hears that copy serve, and gives it up
//     after CandidateTTLMS if it never does.
//   - A server whose page is hidden hands its game to a named copy
//     (HandOver; its clients hear the name in its Leaving, ServerHandedTo).
//     Until they hear that heir serve, the old server and the clients that
//     follow the heir name it in their announcements. An heir that missed
//     every Leaving takes the game over when it hears itself named by a
//     copy of its game, once its server has been silent two beacon
//     periods (the Leaving, which says where the stream stopped, would
//     have come by then).
package election
