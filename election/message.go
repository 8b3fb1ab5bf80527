package election

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/ticnet/ticnet/netcore/link"
)

// Reserved UIDs.
const (
	// ServerUID is the server's UID for game frames, as VectorDoom has it.
	ServerUID uint32 = 1
	// CandidateAddr is where ticnet's candidate announcements go: no peer
	// has this UID, so VectorDoom ignores them.
	CandidateAddr uint32 = 0xFFFFFFFF
	// LocalClientAddr is the server's own client, inside its process
	// (netcore.LocalClientAddr): never a channel UID either.
	LocalClientAddr uint32 = 0xFFFFFFFE
)

// Message lengths.
const (
	RequestLen   = 4
	AnswerLen    = 16
	candidateLen = link.FrameHeaderLen + 4 + 8 + 4 + 4
	heirLen      = 4 // after the flags, when candidateHeir is set
)

var candidateMagic = [4]byte{'T', 'N', 'E', '1'}

// Identity orders the copies of a game: the earlier start time wins, and
// the tie-break settles equal start times.
type Identity struct {
	StartMS float64 // Date.now() at page load
	Tie     uint32  // random, never 0; a ticnet server's game id
}

// Before reports whether a comes before b: a wins.
func (a Identity) Before(b Identity) bool {
	if a.StartMS != b.StartMS {
		return a.StartMS < b.StartMS
	}
	return a.Tie < b.Tie
}

// IsRequest reports whether a frame is an election request: 42 42 42 42.
func IsRequest(f []byte) bool {
	return len(f) == RequestLen && f[0] == 42 && f[1] == 42 && f[2] == 42 && f[3] == 42
}

// AppendRequest appends a request.
func AppendRequest(dst []byte) []byte { return append(dst, 42, 42, 42, 42) }

// IsAnswer reports whether a frame has the shape of an answer or beacon.
func IsAnswer(f []byte) bool {
	return len(f) == AnswerLen && f[0] == 43 && f[1] == 43 && f[2] == 43 && f[3] == 43
}

// AppendAnswer appends an answer (or beacon) for the server id.
func AppendAnswer(dst []byte, id Identity) []byte {
	dst = append(dst, 43, 43, 43, 43)
	dst = binary.LittleEndian.AppendUint32(dst, id.Tie)
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(id.StartMS))
}

var (
	errShape     = errors.New("not an election answer")
	errStartTime = errors.New("start time is not a finite, non-negative number")
)

// ParseAnswer reads an answer. VectorDoom's leave the tie-break bytes as
// they are (zero, normally); that is a valid tie-break too.
func ParseAnswer(f []byte) (Identity, error) {
	if !IsAnswer(f) {
		return Identity{}, errShape
	}
	id := Identity{Tie: binary.LittleEndian.Uint32(f[4:]), StartMS: math.Float64frombits(binary.LittleEndian.Uint64(f[8:]))}
	if math.IsNaN(id.StartMS) || math.IsInf(id.StartMS, 0) || id.StartMS < 0 {
		return Identity{}, errStartTime
	}
	return id, nil
}

// Candidate flags: the optional byte after the game.
const (
	// candidateMigrating: the copy lost its game's server and looks for
	// the next (a client whose server has fallen silent takes it that its
	// server is gone too).
	candidateMigrating = 1 << 0
	// candidateHidden: the copy's page is hidden (its timers run once a
	// second, if at all): it serves only when no visible copy can.
	candidateHidden = 1 << 1
	// candidateHeir: the copy follows the copy whose UID comes after the
	// flags, to which its game's server handed the game over (a Leaving
	// named it): that copy takes the game over when it hears this, if
	// every Leaving was lost on its way to it.
	candidateHeir = 1 << 2
	// candidateLeaving: the copy goes (its page closes): the others forget
	// it at once, rather than after CandidateTTLMS, so that none follows
	// it when its game's server goes next.
	candidateLeaving = 1 << 3
	// candidateWatching: the copy watches its game and never serves
	// (Config.Watch): no copy waits for it or follows it.
	candidateWatching = 1 << 4
)

// appendCandidate appends a candidate announcement frame from uid, which
// plays game (0: none).
func appendCandidate(dst []byte, uid uint32, id Identity, game uint32, flags byte) []byte {
	dst = link.AppendFrame(dst, link.Addr(CandidateAddr), link.Addr(uid), candidateMagic[:])
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(id.StartMS))
	dst = binary.LittleEndian.AppendUint32(dst, id.Tie)
	dst = binary.LittleEndian.AppendUint32(dst, game)
	if flags != 0 {
		dst = append(dst, flags)
	}
	return dst
}

// appendHeir appends, to a candidate announcement whose flags have
// candidateHeir, the UID of the copy it follows.
func appendHeir(dst []byte, heir uint32) []byte { return binary.LittleEndian.AppendUint32(dst, heir) }

var errCandidate = errors.New("malformed candidate announcement")

// parseCandidate reads the payload of a frame addressed to CandidateAddr:
// the copy's identity, the game it plays, its flags and the heir it
// follows (0: none). An announcement without the game (an older ticnet's)
// plays none; one without flags has none set. The heir is there if and
// only if the flags say so.
func parseCandidate(payload []byte) (id Identity, game uint32, flags byte, heir uint32, err error) {
	n := len(payload)
	if (n != candidateLen-12 && n != candidateLen-8 && n != candidateLen-7 && n != candidateLen-7+heirLen) ||
		[4]byte(payload[:4]) != candidateMagic {
		return Identity{}, 0, 0, 0, errCandidate
	}
	id = Identity{StartMS: math.Float64frombits(binary.LittleEndian.Uint64(payload[4:])),
		Tie: binary.LittleEndian.Uint32(payload[12:])}
	if math.IsNaN(id.StartMS) || math.IsInf(id.StartMS, 0) || id.StartMS < 0 || id.Tie == 0 {
		return Identity{}, 0, 0, 0, errCandidate
	}
	if n >= candidateLen-8 {
		game = binary.LittleEndian.Uint32(payload[16:])
	}
	if n >= candidateLen-7 {
		flags = payload[20]
	}
	if (n == candidateLen-7+heirLen) != (flags&candidateHeir != 0) {
		return Identity{}, 0, 0, 0, errCandidate
	}
	if flags&candidateHeir != 0 {
		heir = binary.LittleEndian.Uint32(payload[21:])
	}
	return id, game, flags, heir, nil
}

// ValidUID reports whether u may be a client's UID: not 0 (everyone), not
// the server's, not reserved, and not a value whose bytes would make a
// frame header look like an election message.
func ValidUID(u uint32) bool {
	switch u {
	case 0, ServerUID, CandidateAddr, LocalClientAddr, 0x2A2A2A2A, 0x2B2B2B2B:
		return false
	}
	return true
}
