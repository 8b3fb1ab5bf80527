package session

// joinTimes are the moments of this copy's join of a game in progress,
// for the stats (Stats.TransferMS and JoinMS): when the server said it
// joins, when the game state had arrived, when its player entered. Zero:
// not yet.
type joinTimes struct {
	toldMS, stateMS, enteredMS int64
}

func (j *joinTimes) told(now int64) { j.toldMS = now }

func (j *joinTimes) stateArrived(now int64) {
	if j.stateMS == 0 {
		j.stateMS = now
	}
}

func (j *joinTimes) entered(now int64) {
	if j.toldMS != 0 && j.enteredMS == 0 {
		j.enteredMS = now
	}
}

func (j *joinTimes) report(st *Stats) {
	if j.stateMS != 0 {
		st.TransferMS = j.stateMS - j.toldMS
	}
	if j.enteredMS != 0 {
		st.JoinMS = j.enteredMS - j.toldMS
	}
}
