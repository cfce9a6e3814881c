package catalog

import (
	"io/fs"
	"strconv"
)

// stamp is what a stat says of a file: enough to tell, without reading it,
// whether it may have changed. The change time and the inode catch what
// size and modification time miss: a file rewritten to the same size whose
// modification time was set back, or a file replaced by a rename.
type stamp struct {
	Size  int64
	MTime int64 // Unix nanoseconds
	CTime int64 // Unix nanoseconds; 0 where the system keeps none
	Inode uint64
}

func stampOf(fi fs.FileInfo) stamp {
	st := stamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	st.CTime, st.Inode = sysStamp(fi)
	return st
}

// String is the stamp in a form fit for an ETag or a URL.
func (s stamp) String() string {
	return strconv.FormatInt(s.Size, 36) + "-" + strconv.FormatInt(s.MTime, 36) + "-" +
		strconv.FormatInt(s.CTime, 36) + "-" + strconv.FormatUint(s.Inode, 36)
}
