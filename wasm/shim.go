//go:build js && wasm

package main

import "github.com/hack-pad/safejs"

// The crossings to the channel's shim (js/shim.js): per pass one call and
// one copy bring every frame in (pull), one copy and one call send every
// frame out (flush), through the two buffers of jsbuf.go.

// pull takes every frame queued in the shim, laid out as its drain writes
// them: one call, and one more to copy them (three more when the inbox
// must grow first).
func (l *loop) pull() []byte {
	v, err := l.drain.Invoke()
	if err != nil {
		l.crossed("shim.drain", err)
		return nil
	}
	n := integer(v)
	if n > l.inbox.n {
		if l.fit(&l.inbox, n) != nil {
			return nil
		}
		if v, err = l.drain.Invoke(); err != nil {
			l.crossed("shim.drain", err)
			return nil
		}
		n = integer(v)
	}
	if n <= 0 || n > l.inbox.n {
		return nil
	}
	if cap(l.in) < n {
		l.in = make([]byte, n)
	}
	l.in = l.in[:n]
	if _, err := safejs.CopyBytesToGo(l.in, l.inbox.v); err != nil {
		l.crossed("inbox", err)
		return nil
	}
	return l.in
}

// flush pushes the session's outgoing frames to the shim: one call to
// copy them into the outbox, one to send them.
func (l *loop) flush() {
	l.out = l.s.AppendOutgoing(l.out[:0])
	if len(l.out) == 0 || l.fit(&l.outbox, len(l.out)) != nil {
		return
	}
	if _, err := safejs.CopyBytesToJS(l.outbox.v, l.out); err != nil {
		l.crossed("outbox", err)
		return
	}
	_, err := l.sendBatch.Invoke(len(l.out))
	l.crossed("shim.sendBatch", err)
}

// fit makes the inbox or the outbox at least n bytes long, and gives the
// shim the new one when it grows.
func (l *loop) fit(b *jsBuf, n int) error {
	grew, err := b.fit(n)
	if grew {
		_, err = l.setBuffers.Invoke(l.inbox.v, l.outbox.v)
	}
	l.crossed("shim.setBuffers", err)
	return err
}

// filter tells the shim which UIDs to keep frames for, when they change.
func (l *loop) filter() {
	uids := l.s.UIDs()
	if uids[0] == l.uid { // the candidate address never changes
		return
	}
	l.uid = uids[0]
	var x errs
	a := newArray(&x, uids)
	if x.err == nil {
		_, x.err = l.setUIDs.Invoke(a)
	}
	l.crossed("shim.setUIDs", x.err)
}
