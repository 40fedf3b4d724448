package mszeroisoff

import "github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"

type (
	// Segment is the suite's type, so that the bank runs this mistake as it is.
	Segment = kafkalogkit.RetentionSegment
	// Log is the suite's type.
	Log = kafkalogkit.RetentionLog
	// Config is the suite's type.
	Config = kafkalogkit.RetentionConfig
)
