package auth

import (
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
	"io"
)

// PublicLen is the length of a public key on the wire (X25519).
const PublicLen = 32

// NewKey draws a key pair from rand (crypto/rand.Reader in a browser; a
// seeded reader in a simulation).
func NewKey(rand io.Reader) (*ecdh.PrivateKey, error) {
	var seed [32]byte
	if _, err := io.ReadFull(rand, seed[:]); err != nil {
		return nil, err
	}
	return KeyFromSecret(seed[:]), nil
}

// KeyFromSecret derives a key pair from a secret of the copy's (a rejoin
// token the page keeps across reloads): the same secret gives the same
// key, so a copy that comes back proves it is the player who left by its
// key, and the secret never goes on the wire.
func KeyFromSecret(secret []byte) *ecdh.PrivateKey {
	k, err := hkdf.Key(sha256.New, secret, nil, "ticnet/1 copy key", 32)
	if err != nil {
		panic(err) // 32 bytes of SHA-256's HKDF cannot fail
	}
	priv, err := ecdh.X25519().NewPrivateKey(k)
	if err != nil {
		panic(err) // every 32 bytes are an X25519 private key
	}
	return priv
}

// Public returns a key pair's public key, as it goes on the wire.
func Public(k *ecdh.PrivateKey) [PublicLen]byte {
	return [PublicLen]byte(k.PublicKey().Bytes())
}

// ErrBadPublic is the error of a peer's public key that gives no secret
// (a low-order point: a forger's way to fix the outcome).
var ErrBadPublic = errors.New("auth: the peer's public key gives no shared secret")

// Keys are a connection's, at one end: one for what it sends, one for
// what it receives.
type Keys struct {
	send, recv *Key
}

// Agree derives the keys of connection conn between own and the peer's
// public key, as the client (client true) or the server sees them. Both
// ends derive the same two, each sending with the key the other receives
// with.
func Agree(own *ecdh.PrivateKey, peer [PublicLen]byte, conn uint32, client bool) (Keys, error) {
	pub, err := ecdh.X25519().NewPublicKey(peer[:])
	if err != nil {
		return Keys{}, ErrBadPublic
	}
	secret, err := own.ECDH(pub)
	if err != nil {
		return Keys{}, ErrBadPublic
	}
	mine := Public(own)
	cpub, spub := mine, peer
	if !client {
		cpub, spub = peer, mine
	}
	info := make([]byte, 0, len("ticnet/1 connection")+4+2*PublicLen)
	info = append(info, "ticnet/1 connection"...)
	info = binary.BigEndian.AppendUint32(info, conn)
	info = append(append(info, cpub[:]...), spub[:]...)
	okm, err := hkdf.Key(sha256.New, secret, nil, string(info), 64)
	if err != nil {
		return Keys{}, err
	}
	toServer, toClient := newKey(okm[:32]), newKey(okm[32:])
	if client {
		return Keys{send: toServer, recv: toClient}, nil
	}
	return Keys{send: toClient, recv: toServer}, nil
}

// Key makes the tags of one direction of a connection.
type Key struct {
	mac  hash.Hash
	head [10]byte // domain, mask, counter
	sum  [sha256.Size]byte
}

func newKey(k []byte) *Key { return &Key{mac: hmac.New(sha256.New, k)} }

// The domains of a tag: a frame to the server, one from it to one client,
// one it broadcasts. Each is in the tag's input, so that no frame of one
// passes for another's.
const (
	domainToServer  = 'c'
	domainToClient  = 's'
	domainBroadcast = 'b'
)

// tag is the tag of frame, sent in domain with counter ctr and, for a
// broadcast, mask.
func (k *Key) tag(domain, mask byte, ctr uint64, frame []byte) [TagLen]byte {
	k.mac.Reset()
	k.head[0], k.head[1] = domain, mask
	binary.BigEndian.PutUint64(k.head[2:], ctr)
	k.mac.Write(k.head[:])
	k.mac.Write(frame)
	return [TagLen]byte(k.mac.Sum(k.sum[:0]))
}
