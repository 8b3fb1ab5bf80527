package election

// maxCandidates bounds the copies an election remembers.
const maxCandidates = 64

// candidate is another copy as this one last heard it.
type candidate struct {
	id      Identity
	seenMS  int64
	game    uint32 // the game it plays, as it last said (0: none)
	server  bool   // heard as a server
	heardMS int64  // when it was last heard as a server
	uid     uint32 // its UID, from its announcement
	hidden  bool   // its page is hidden, as it last said
	watches bool   // it never serves (candidateWatching)
}

// candidates are the copies this one heard lately, at most maxCandidates:
// a new one replaces the one heard least lately.
type candidates []candidate

// remember records that id, a candidate or a server, was heard at now.
func (cs *candidates) remember(now int64, id Identity) *candidate {
	if c := cs.find(id); c != nil {
		c.seenMS = now
		return c
	}
	c := candidate{id: id, seenMS: now}
	if len(*cs) < maxCandidates {
		*cs = append(*cs, c)
		return &(*cs)[len(*cs)-1]
	}
	s := *cs
	oldest := 0
	for i := range s {
		if s[i].seenMS < s[oldest].seenMS {
			oldest = i
		}
	}
	s[oldest] = c
	return &s[oldest]
}

// find is the candidate with identity id, or nil.
func (cs candidates) find(id Identity) *candidate {
	for i := range cs {
		if cs[i].id == id {
			return &cs[i]
		}
	}
	return nil
}

// forget drops a candidate: the server this copy lost.
func (cs *candidates) forget(id Identity) {
	for i, c := range *cs {
		if c.id == id {
			*cs = append((*cs)[:i], (*cs)[i+1:]...)
			return
		}
	}
}

// expire forgets the candidates not heard from for ttlMS.
func (cs *candidates) expire(now, ttlMS int64) {
	live := (*cs)[:0]
	for _, c := range *cs {
		if now-c.seenMS <= ttlMS {
			live = append(live, c)
		}
	}
	*cs = live
}

// shift moves every time heard gapMS later: the time this copy slept.
func (cs candidates) shift(gapMS int64) {
	for i := range cs {
		cs[i].seenMS += gapMS
		cs[i].heardMS += gapMS
	}
}

// byUID is the candidate with UID uid heard last, or nil.
func (cs candidates) byUID(uid uint32) *candidate {
	var found *candidate
	for i := range cs {
		if c := &cs[i]; c.uid == uid && (found == nil || c.seenMS > found.seenMS) {
			found = c
		}
	}
	return found
}

// hiddenOf reports whether the copy with identity id said last that its
// page is hidden.
func (cs candidates) hiddenOf(id Identity) bool {
	c := cs.find(id)
	return c != nil && c.hidden
}

// comesBefore reports whether a copy (hidden or not, with identity a)
// comes before another in an election.
func comesBefore(aHidden bool, a Identity, bHidden bool, b Identity) bool {
	if aHidden != bHidden {
		return !aHidden
	}
	return a.Before(b)
}

// before reports whether copy a comes before copy b in an election, as
// their announcements show them (hidden or not).
func (cs candidates) before(a, b Identity) bool {
	return comesBefore(cs.hiddenOf(a), a, cs.hiddenOf(b), b)
}

// ahead returns the live candidate that comes before this copy, of those
// of its game when it looks for its game's next server, and whether it
// is a server; nil when none does. A server heard of late comes first:
// it serves on, and this copy joins it (late, if its game runs) rather
// than open a lobby beside it. Then a visible copy comes before every
// hidden one, and the earlier identity first.
func (e *Election) ahead(now int64) (*candidate, bool) {
	var best *candidate
	for i := range e.cands {
		c := &e.cands[i]
		if e.migrating() && c.game != e.game || e.gone.lost(now, c.id) || c.watches && !c.server {
			continue // another game's; the server just lost, announcing late; or one that never serves
		}
		if c.server && now-c.heardMS <= e.cfg.Cadence.CandidateTTLMS {
			return c, true
		}
		if comesBefore(c.hidden, c.id, e.hidden, e.self) && (best == nil || comesBefore(c.hidden, c.id, best.hidden, best.id)) {
			best = c
		}
	}
	return best, false
}
