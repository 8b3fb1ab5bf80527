package testgame

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ticnet/ticnet/netcore/tic"
)

// stateMagic starts a saved state.
var stateMagic = [4]byte{'T', 'G', 'S', '1'}

// stateHeaderBytes is the saved state before the world: magic, hash,
// world length, and each player's x, y, angle and acc.
const stateHeaderBytes = 4 + 4 + 4 + tic.MaxPlayers*16

// SaveState returns the whole game state after the last RunTic
// (tic.Snapshotter). The recorded history (checksums, commands) is the
// test's, not the game's, and is not saved.
func (g *Game) SaveState() []byte {
	g.calls++
	b := make([]byte, 0, stateHeaderBytes+len(g.world))
	b = append(b, stateMagic[:]...)
	b = binary.LittleEndian.AppendUint32(b, g.hash)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(g.world)))
	for _, p := range g.state {
		b = binary.LittleEndian.AppendUint32(b, uint32(p.x))
		b = binary.LittleEndian.AppendUint32(b, uint32(p.y))
		b = binary.LittleEndian.AppendUint32(b, uint32(p.angle))
		b = binary.LittleEndian.AppendUint32(b, p.acc)
	}
	return append(b, g.world...)
}

var errState = errors.New("testgame: not a saved state")

// LoadState replaces the game state with a saved one
// (tic.Snapshotter). A state that does not parse leaves the game as it
// was.
func (g *Game) LoadState(state []byte) error {
	g.calls++
	if len(state) < stateHeaderBytes || [4]byte(state[:4]) != stateMagic {
		return errState
	}
	n := binary.LittleEndian.Uint32(state[8:])
	if uint64(len(state)) != stateHeaderBytes+uint64(n) {
		return fmt.Errorf("testgame: state of %d bytes says its world has %d", len(state), n)
	}
	g.hash = binary.LittleEndian.Uint32(state[4:])
	o := 12
	for i := range g.state {
		p := &g.state[i]
		p.x = int32(binary.LittleEndian.Uint32(state[o:]))
		p.y = int32(binary.LittleEndian.Uint32(state[o+4:]))
		p.angle = int32(binary.LittleEndian.Uint32(state[o+8:]))
		p.acc = binary.LittleEndian.Uint32(state[o+12:])
		o += 16
	}
	g.world = append(g.world[:0], state[o:]...)
	g.loads++
	return nil
}
