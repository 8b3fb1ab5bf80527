package main

import (
	"fmt"
	"io"
	"os"

	"github.com/ticnet/ticnet/netcore/wire"
)

// readReplay reads replay file path, and returns its whole records: all
// of it, or, for a file that ends inside a record or has a record that
// does not read, the file up to its last whole record and a warning that
// says where and why. A file whose header does not read is an error.
func readReplay(path string) (data []byte, warning string, err error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	data, cause, err := wholeRecords(file)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return data, cutShort(path, data, file, cause), nil
}

// cutShort is the warning of a file read up to its last whole record,
// whole, for cause; none without a cause.
func cutShort(path string, whole, file []byte, cause error) string {
	if cause == nil {
		return ""
	}
	return fmt.Sprintf("%s: read up to byte %d of %d, its last whole record (%v)", path, len(whole), len(file), cause)
}

// wholeRecords returns replay file data up to the end of its last whole
// record, and, when that is not the end of the file, why the next does
// not read. A header that does not read is an error.
func wholeRecords(data []byte) (whole []byte, cause, err error) {
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return nil, nil, err
	}
	var rec wire.ReplayRecord
	for {
		switch err := r.Next(&rec); err {
		case nil:
		case io.EOF:
			return data, nil, nil
		default:
			return data[:rec.Offset], err, nil
		}
	}
}

// eachRecord calls f with every record of data, a file readReplay read,
// in order, until f returns an error (which it returns).
func eachRecord(data []byte, f func(*wire.ReplayRecord) error) error {
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return err
	}
	var rec wire.ReplayRecord
	for {
		switch err := r.Next(&rec); err {
		case nil:
			if err := f(&rec); err != nil {
				return err
			}
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}
