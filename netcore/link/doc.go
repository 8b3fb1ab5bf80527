// Package link is what the engine's packages share about the channel: a
// peer's address, the Transport that moves packets, and the frame that
// carries them on a broadcast channel.
//
// It is a leaf: it imports nothing of ticnet, so that every part of the
// engine (netcore, its bulk streams in package transfer, the simulated
// network) can name a peer and a transport without importing the engine.
// It does no IO of its own and keeps no state but FrameFilter's counters.
package link
