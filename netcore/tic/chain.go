package tic

import (
	"crypto/sha256"
	"encoding/binary"
)

// ChainLen is the length of a Chain: 128 bits of SHA-256, enough that no
// one finds two histories with one chain (2^64 work for a collision, 2^128
// for a history that matches a given one).
const ChainLen = 16

// Chain is a digest of the confirmed history up to and including one tic:
// the chain of the tic before, the tic's number and everything a copy runs
// it with (who is in the game, whose commands the server substituted, and
// each player's command). Every copy computes it alike as it confirms a
// tic, and the server as it sends one; the server signs it for the copies
// that have no tag of their own in its broadcasts (watchers), which check
// the tics they took, from anyone, against it before they run them.
type Chain [ChainLen]byte

// chainInput bounds a tic's encoding: its number, two masks, and each
// player's command.
const chainInput = ChainLen + 4 + 2 + MaxPlayers*(cmdFields+wireMaxInput)

const (
	cmdFields    = 12 // a command's fields without its input, encoded
	wireMaxInput = len(Cmd{}.Input)
)

// Next returns the chain through tic seq, confirmed as t, after c, the
// chain through the tic before; inputSize is how many bytes of a
// command's input the game uses (the rest are zero on every copy).
func (c Chain) Next(seq uint32, t *ConfirmedTic, inputSize uint8) Chain {
	var buf [chainInput]byte
	b := append(buf[:0], c[:]...)
	b = binary.BigEndian.AppendUint32(b, seq)
	b = append(b, t.InGame, t.Substituted)
	for p := range MaxPlayers {
		if !t.Playing(p) {
			continue
		}
		m := &t.Cmds[p]
		b = append(b, byte(m.ForwardMove), byte(m.SideMove))
		b = binary.BigEndian.AppendUint16(b, uint16(m.AngleTurn))
		b = append(b, m.ChatChar, m.Buttons, m.Consistency, m.Buttons2)
		b = binary.BigEndian.AppendUint16(b, m.Inventory)
		b = append(b, m.LookFly, m.Arti)
		b = append(b, m.Input[:min(int(inputSize), wireMaxInput)]...)
	}
	sum := sha256.Sum256(b)
	return Chain(sum[:ChainLen])
}
