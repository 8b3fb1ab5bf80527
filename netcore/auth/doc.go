// Package auth authenticates the extension protocol's frames on a channel
// that every member of a chat reads and writes under any UID.
//
// Each copy has an X25519 key pair (crypto/ecdh). A client offers its
// public key with its SYN, the server answers with its own, and both ends
// derive the connection's keys from the shared secret (HKDF-SHA-256 over
// the connection's identity and both public keys): one for each
// direction, so that a frame cannot be reflected back to its sender.
// From then on every frame of the connection carries, at its end, a tag
// (HMAC-SHA-256 over the frame and a counter, truncated to TagLen bytes)
// and the counter's low byte; the receiver rebuilds the counter, checks
// the tag, and drops a frame it has seen (a replay, or the channel's
// duplicate) or one older than its window, before anything reads it.
//
// A frame the server broadcasts carries one tag per player it is meant
// for, each under that player's connection key, and a mask saying whose
// they are: no member can forge the server's stream to a player, not even
// another player, who knows only its own key.
//
// A watcher has no tag in a broadcast (a tag each for dozens of watchers
// would cost every copy): the server signs, every few tics, the chain of
// the tics it sent (Signer, with Ed25519), and a watcher runs a tic, from
// the server or from another watcher, only once a signed chain vouches
// for it.
//
// What a member who sees every frame cannot do: send a frame that a
// connection takes as its peer's (one guess in 2^32 per frame sent),
// replay one, or take a connection over with a new SYN. What it still
// can: flood the channel, race a copy's very first handshake (trust on
// first use), and, as the server, decide the game.
//
// It is sans-IO: times are milliseconds given by the caller; keys come
// from the caller (NewKey draws one from a reader it is given).
package auth
