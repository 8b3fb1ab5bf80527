package wire

import "strconv"

// Context is what a session has learned that decides how its later
// packets decode, none of it on the wire: the settings of the game that
// runs and where it is.
type Context struct {
	LowResTurn bool   // the game's GAMESTART set lowres_turn: turning travels in one byte
	InputSize  uint8  // the game's input layout (ModeNotice): 0 for Doom's ticcmd
	Ext        bool   // the game runs under the extension (ModeNotice.Extended)
	Near       uint32 // a tic near those the packet names, its 16-bit tic numbers expand near it
}

// NewMessage is NewMessageIn with the zero Context but lowres: a client's
// GAMEDATA reads in the reference's layout, and a TicSet's Start expands
// near tic 0.
func NewMessage(h Header, body []byte, dir Direction, lowres bool) (Message, error) {
	return NewMessageIn(h, body, dir, Context{LowResTurn: lowres})
}

// NewMessageIn returns an empty message of the kind a packet with header h
// sent in direction dir carries, with what ctx says of its session set,
// ready for DecodeBody. It is for tools and for code that does not know
// what comes next; hot paths decode into a message of their own.
// body is needed only for TypeTicnet, whose first byte picks the message.
func NewMessageIn(h Header, body []byte, dir Direction, ctx Context) (Message, error) {
	switch h.Type {
	case TypeSYN:
		if h.Reliable {
			return &SYNReply{}, nil
		}
		return &SYN{}, nil
	case TypeRejected:
		return &Rejected{}, nil
	case TypeWaitingData:
		return &WaitingData{}, nil
	case TypeGameStart:
		return &GameStart{}, nil
	case TypeGameData:
		if dir == ServerToClient {
			return &ServerGameData{LowResTurn: ctx.LowResTurn, InputSize: ctx.InputSize}, nil
		}
		return &ClientGameData{LowResTurn: ctx.LowResTurn, InputSize: ctx.InputSize, Ext: ctx.Ext, Near: ctx.Near}, nil
	case TypeGameDataAck:
		return &GameDataAck{}, nil
	case TypeReliableAck:
		return &ReliableAck{}, nil
	case TypeGameDataResend:
		return &GameDataResend{}, nil
	case TypeConsoleMessage:
		return &ConsoleMessage{}, nil
	case TypeQueryResponse:
		return &QueryResponse{}, nil
	case TypeLaunch:
		if dir == ServerToClient {
			return &Launch{}, nil
		}
		return &Empty{Kind: TypeLaunch}, nil
	case TypeKeepalive, TypeDisconnect, TypeDisconnectAck, TypeQuery, TypeNATHolePunch, TypeACK:
		return &Empty{Kind: h.Type}, nil
	case TypeTicnet:
		k, err := TicnetKind(body)
		if err != nil {
			return nil, shift(err, h.Type, h.Len())
		}
		switch k {
		case TicnetKindTicSet:
			return &TicSet{LowResTurn: ctx.LowResTurn, InputSize: ctx.InputSize, Near: ctx.Near}, nil
		case TicnetKindChecksum:
			return &ChecksumReport{}, nil
		case TicnetKindMode:
			return &ModeNotice{}, nil
		case TicnetKindLaunchOptions:
			return &LaunchOptions{}, nil
		case TicnetKindEndRequest:
			return &EndRequest{}, nil
		case TicnetKindEndAsked:
			return &EndAsked{}, nil
		case TicnetKindGameEnd:
			return &GameEnd{}, nil
		case TicnetKindGameOver:
			return &GameOver{}, nil
		case TicnetKindDesync:
			return &Desync{}, nil
		case TicnetKindInputDelay:
			return &InputDelay{}, nil
		case TicnetKindRepair:
			return &Repair{}, nil
		case TicnetKindRepairDone:
			return &RepairDone{}, nil
		case TicnetKindRepaired:
			return &Repaired{}, nil
		case TicnetKindStatesRequest:
			return &StatesRequest{}, nil
		case TicnetKindStateFeed:
			return &StateFeed{}, nil
		case TicnetKindTicSource:
			return &TicSource{}, nil
		case TicnetKindWatcherList:
			return &WatcherList{}, nil
		case TicnetKindAttest:
			return &Attest{}, nil
		case TicnetKindSigner:
			return &Signer{}, nil
		case TicnetKindAttestFetch:
			return &AttestFetch{}, nil
		case TicnetKindJoinStart:
			return &JoinStart{}, nil
		case TicnetKindSnapshotRequest:
			return &SnapshotRequest{}, nil
		case TicnetKindJoinReady:
			return &JoinReady{}, nil
		case TicnetKindHello:
			return &Hello{}, nil
		case TicnetKindRoster:
			return &Roster{}, nil
		case TicnetKindLeaving:
			return &Leaving{}, nil
		case TicnetKindReattach:
			return &Reattach{}, nil
		case TicnetKindResume:
			return &Resume{}, nil
		case TicnetKindTicFetch:
			return &TicFetch{}, nil
		case TicnetKindTransferChunk:
			return &TransferChunk{}, nil
		case TicnetKindTransferAck:
			return &TransferAck{}, nil
		case TicnetKindTransferAbort:
			return &TransferAbort{}, nil
		}
		return nil, &DecodeError{Type: "TICNET", Offset: h.Len(), Field: "kind", Reason: "unknown kind " + strconv.Itoa(int(k))}
	}
	return nil, &DecodeError{Offset: 0, Field: "type", Reason: "unknown packet type " + strconv.Itoa(int(h.Type))}
}

// DecodePacket is DecodePacketIn with the zero Context but lowres (see
// NewMessage).
func DecodePacket(pkt []byte, dir Direction, lowres bool) (Header, Message, error) {
	return DecodePacketIn(pkt, dir, Context{LowResTurn: lowres})
}

// DecodePacketIn decodes any packet sent in direction dir in a session
// that has learned ctx.
func DecodePacketIn(pkt []byte, dir Direction, ctx Context) (Header, Message, error) {
	h, body, err := ParseHeader(pkt)
	if err != nil {
		return h, nil, err
	}
	m, err := NewMessageIn(h, body, dir, ctx)
	if err != nil {
		return h, nil, err
	}
	if err := m.DecodeBody(body); err != nil {
		return h, m, shift(err, h.Type, h.Len())
	}
	return h, m, nil
}
