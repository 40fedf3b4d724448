package replicalog

import "github.com/kafkalive/kafkalive/kafkalog"

// Clean runs one round of the log cleaner on the log ([kafkalog.Log.Clean],
// Kafka's default cleaner options) up to highWatermark, from the first
// dirty offset cleanerOffset, and rebuilds the mirror from the segments it
// swapped in (after every round that succeeds, as retention's
// changes are followed by a rebuild too). A round can fail part way: on
// [kafkalog.ErrUncleanable] (a batch that does not parse, met in a group
// of segments after others were swapped in) the groups already swapped in
// stay, and the mirror is rebuilt from them all the same, so that it
// never holds what the files no longer do. Nothing the round did not
// rewrite changes: the damaged bytes stay where they are, read as before.
func (r *Log) Clean(cleanerOffset, highWatermark, nowMs int64) (kafkalog.CleanResult, error) {
	res, err := r.log.Clean(cleanerOffset, highWatermark, nowMs, kafkalog.CleanerOptions{})
	if err != nil && len(res.Groups) == 0 {
		return res, err
	}
	if rerr := r.Reload(); rerr != nil {
		return res, rerr // the mirror no longer holds the files: worse than the round's failure
	}
	return res, err
}
