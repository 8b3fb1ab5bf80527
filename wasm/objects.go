//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ticnet/ticnet/election/session"
)

// The objects the page gets from the session, with the fields and names
// ticnet.d.ts gives them: what encoding/json made of the session's types,
// but for the options, a Uint8Array here (ticnet.js decodes them).

// eventObject is e for the page's onEvent. The fields that are zero (or
// empty) are left out, and ticnet.js fills in those its kind has.
func eventObject(e session.Event) js.Value {
	o := newObject()
	o.Set("kind", e.Kind)
	setNonZero(o, "role", string(e.Role))
	setNonZero(o, "uid", e.UID)
	setNonZero(o, "serverUID", e.ServerUID)
	if e.Player != nil {
		o.Set("player", *e.Player)
	}
	setNonZero(o, "name", e.Name)
	setNonZero(o, "reason", e.Reason)
	setNonZero(o, "tic", e.Tic)
	if len(e.Players) > 0 {
		o.Set("players", newArray(e.Players))
	}
	if e.Lobby != nil {
		o.Set("lobby", lobbyObject(e.Lobby))
	}
	setNonZero(o, "protocol", e.Protocol)
	setNonZero(o, "joined", e.Joined)
	setNonZero(o, "rejoined", e.Rejoined)
	setNonZero(o, "done", e.Done)
	setNonZero(o, "total", e.Total)
	setNonZero(o, "unit", e.Unit)
	setNonZero(o, "gapMS", e.GapMS)
	setNonZero(o, "ticRate", e.TicRate)
	setNonZero(o, "seed", e.Seed)
	if len(e.Options) > 0 {
		if b, err := newBytes(e.Options); err == nil {
			o.Set("options", b)
		}
	}
	return o
}

// setNonZero sets o[name] to v unless v is zero.
func setNonZero[T string | bool | int | int64 | uint32](o js.Value, name string, v T) {
	var zero T
	if v != zero {
		o.Set(name, v)
	}
}

func lobbyObject(r *session.LobbyReport) js.Value {
	players := jsArray.New(len(r.Players))
	if r.Players == nil {
		players = js.Null()
	}
	for i, p := range r.Players {
		po := newObject()
		po.Set("name", p.Name)
		po.Set("addr", p.Addr)
		players.SetIndex(i, po)
	}
	o := newObject()
	o.Set("players", players)
	o.Set("controller", r.Controller)
	o.Set("player", r.Player)
	o.Set("maxPlayers", r.MaxPlayers)
	return o
}

// statsObject is st for the page's stats(), every field set; nil (no
// pass has published any yet) is { role: "undecided" }.
func statsObject(st *session.Stats) js.Value {
	o := newObject()
	if st == nil {
		o.Set("role", string(session.RoleUndecided))
		return o
	}
	o.Set("role", string(st.Role))
	o.Set("uid", st.UID)
	o.Set("players", arrayOrNull(st.Players))
	o.Set("gametic", st.Gametic)
	o.Set("recvtic", st.Recvtic)
	o.Set("maketic", st.Maketic)
	o.Set("rttMS", st.RTTMS)
	o.Set("protocol", st.Protocol)
	o.Set("framesIn", st.FramesIn)
	o.Set("framesOut", st.FramesOut)
	o.Set("bytesIn", st.BytesIn)
	o.Set("bytesOut", st.BytesOut)
	o.Set("framesInPerSec", st.FramesInPerSec)
	o.Set("framesOutPerSec", st.FramesOutPerSec)
	o.Set("bytesInPerSec", st.BytesInPerSec)
	o.Set("bytesOutPerSec", st.BytesOutPerSec)
	o.Set("dropped", st.Dropped)
	o.Set("resends", st.Resends)
	o.Set("substituted", st.Substituted)
	o.Set("passMedianUS", st.PassMedianUS)
	o.Set("passP99US", st.PassP99US)
	o.Set("passMeanUS", st.PassMeanUS)
	o.Set("ticMedianUS", st.TicMedianUS)
	o.Set("ticP99US", st.TicP99US)
	o.Set("transferBytesIn", st.TransferBytesIn)
	o.Set("transferMS", st.TransferMS)
	o.Set("joinMS", st.JoinMS)
	o.Set("ticsPerUpdate", st.TicsPerUpdate)
	o.Set("ticCostUS", st.TicCostUS)
	o.Set("migrations", st.Migrations)
	o.Set("predictedTic", st.PredictedTic)
	o.Set("predicted", st.Predicted)
	o.Set("rollbacks", st.Rollbacks)
	o.Set("rolledBack", st.RolledBack)
	o.Set("replayBytes", st.ReplayBytes)
	o.Set("replayStopped", st.ReplayStopped)
	return o
}
