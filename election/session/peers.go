package session

import "github.com/ticnet/ticnet/netcore"

// Peer is one player's network (Stats.Peers).
type Peer struct {
	Player int    `json:"player"`
	Name   string `json:"name"`
	// RTTMS is the round trip between the server and the player's copy:
	// from a tic set sent to the command that acknowledges it, which the
	// copy sends with its next command (so up to a tic more than the
	// channel's); -1 before one was measured.
	RTTMS int `json:"rttMS"`
	// MarginMS is how early the player's commands reached the server
	// before they were due, at worst over the last few tics (negative:
	// late); Ahead the same in whole tics, for its newest command.
	MarginMS int `json:"marginMS"`
	Ahead    int `json:"ahead"`
	// Loss is the share of the player's packets lost on the way to the
	// server (0 to 1).
	Loss float64 `json:"loss"`
	// Substituted counts the player's commands the server replaced (they
	// came too late, or never) in the tics this copy received this game.
	Substituted int64 `json:"substituted"`
	// InputDelay is the tics of input delay the player builds with.
	InputDelay int `json:"inputDelay"`
}

// appendPeers appends the session's figures for the engine's.
func appendPeers(dst []Peer, ps []netcore.Peer) []Peer {
	for _, p := range ps {
		dst = append(dst, Peer{Player: p.Player, RTTMS: p.RTTMS, MarginMS: p.MarginMS, Ahead: p.Ahead, Loss: p.Loss,
			Substituted: p.Substituted, InputDelay: p.InputDelay})
	}
	return dst
}
