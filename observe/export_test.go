package observe

// SetDescribePartitionsLimit makes o's DescribeTopicPartitions ask for
// pages of n partitions, so that a test of a few partitions pages.
func SetDescribePartitionsLimit(o *Observer, n int32) { o.poller.describeLimit = n }
