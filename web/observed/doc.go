// Package observed serves the page of a real Kafka cluster that an
// observer (package observe) watches: kafkalive observe --addr. The page
// (web's static observe.html) draws the sample its timeline's slider picks
// and runs Kafka's read-only tools on it (internal/kafkatools/observedtools);
// the server refuses every request that would act. It lives apart from
// package web so that the simulated page, and the modules that build on it
// (the kit's live mode), do not link the observer's Kafka client.
package observed
