//go:build js && wasm

package main

import (
	"github.com/hack-pad/safejs"

	"github.com/ticnet/ticnet/election/session"
)

// The objects the page gets from the session, with the fields and names
// ticnet.d.ts gives them: what encoding/json made of the session's types,
// but for the options, a Uint8Array here (ticnet.js decodes them).

// eventObject is e for the page's onEvent. The fields that are zero (or
// empty) are left out, and ticnet.js fills in those its kind has.
func eventObject(e session.Event) (safejs.Value, error) {
	var x errs
	o := x.object()
	x.set(o, "kind", e.Kind)
	setNonZero(&x, o, "role", string(e.Role))
	setNonZero(&x, o, "uid", e.UID)
	setNonZero(&x, o, "serverUID", e.ServerUID)
	if e.Player != nil {
		x.set(o, "player", *e.Player)
	}
	setNonZero(&x, o, "name", e.Name)
	setNonZero(&x, o, "reason", e.Reason)
	setNonZero(&x, o, "tic", e.Tic)
	if len(e.Players) > 0 {
		x.set(o, "players", newArray(&x, e.Players))
	}
	if e.Lobby != nil {
		x.set(o, "lobby", lobbyObject(&x, e.Lobby))
	}
	setNonZero(&x, o, "protocol", e.Protocol)
	setNonZero(&x, o, "joined", e.Joined)
	setNonZero(&x, o, "rejoined", e.Rejoined)
	setNonZero(&x, o, "done", e.Done)
	setNonZero(&x, o, "total", e.Total)
	setNonZero(&x, o, "unit", e.Unit)
	setNonZero(&x, o, "gapMS", e.GapMS)
	setNonZero(&x, o, "ticRate", e.TicRate)
	setNonZero(&x, o, "seed", e.Seed)
	if len(e.Options) > 0 {
		x.set(o, "options", x.bytes(e.Options))
	}
	return o, x.err
}

// setNonZero sets o[name] to v unless v is zero.
func setNonZero[T string | bool | int | int64 | uint32](x *errs, o safejs.Value, name string, v T) {
	var zero T
	if v != zero {
		x.set(o, name, v)
	}
}

func lobbyObject(x *errs, r *session.LobbyReport) safejs.Value {
	players := safejs.Null()
	if r.Players != nil {
		players = x.construct(jsArray, len(r.Players))
	}
	for i, p := range r.Players {
		po := x.object()
		x.set(po, "name", p.Name)
		x.set(po, "addr", p.Addr)
		if x.err == nil {
			x.keep(players.SetIndex(i, po))
		}
	}
	o := x.object()
	x.set(o, "players", players)
	x.set(o, "controller", r.Controller)
	x.set(o, "player", r.Player)
	x.set(o, "maxPlayers", r.MaxPlayers)
	return o
}

// statsObject is st for the page's stats(), every field set; nil (no
// pass has published any yet) is { role: "undecided" }.
func statsObject(st *session.Stats) (safejs.Value, error) {
	var x errs
	o := x.object()
	if st == nil {
		x.set(o, "role", string(session.RoleUndecided))
		return o, x.err
	}
	x.set(o, "role", string(st.Role))
	x.set(o, "uid", st.UID)
	x.set(o, "players", arrayOrNull(&x, st.Players))
	x.set(o, "gametic", st.Gametic)
	x.set(o, "recvtic", st.Recvtic)
	x.set(o, "maketic", st.Maketic)
	x.set(o, "rttMS", st.RTTMS)
	x.set(o, "protocol", st.Protocol)
	x.set(o, "framesIn", st.FramesIn)
	x.set(o, "framesOut", st.FramesOut)
	x.set(o, "bytesIn", st.BytesIn)
	x.set(o, "bytesOut", st.BytesOut)
	x.set(o, "framesInPerSec", st.FramesInPerSec)
	x.set(o, "framesOutPerSec", st.FramesOutPerSec)
	x.set(o, "bytesInPerSec", st.BytesInPerSec)
	x.set(o, "bytesOutPerSec", st.BytesOutPerSec)
	x.set(o, "dropped", st.Dropped)
	x.set(o, "resends", st.Resends)
	x.set(o, "substituted", st.Substituted)
	x.set(o, "passMedianUS", st.PassMedianUS)
	x.set(o, "passP99US", st.PassP99US)
	x.set(o, "passMeanUS", st.PassMeanUS)
	x.set(o, "ticMedianUS", st.TicMedianUS)
	x.set(o, "ticP99US", st.TicP99US)
	x.set(o, "transferBytesIn", st.TransferBytesIn)
	x.set(o, "transferMS", st.TransferMS)
	x.set(o, "joinMS", st.JoinMS)
	x.set(o, "ticsPerUpdate", st.TicsPerUpdate)
	x.set(o, "ticCostUS", st.TicCostUS)
	x.set(o, "migrations", st.Migrations)
	x.set(o, "predictedTic", st.PredictedTic)
	x.set(o, "predicted", st.Predicted)
	x.set(o, "rollbacks", st.Rollbacks)
	x.set(o, "rolledBack", st.RolledBack)
	x.set(o, "replayBytes", st.ReplayBytes)
	x.set(o, "replayStopped", st.ReplayStopped)
	return o, x.err
}
