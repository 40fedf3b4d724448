// Package observed serves the page of a real Kafka cluster that an
// observer (package observe) watches: kafkalive observe --addr. It is the
// simulated cluster's page itself (web's static index.html, its panels and
// its update stream), fed from the observer's samples: [Source] turns the
// sample a page shows into the same [web.View] the simulation's page
// draws, every figure copied from the sample and what the cluster did not
// tell marked web.NotObserved, never invented; the timeline's slider picks
// a sample, the lag of each group is drawn over the samples kept, and the
// terminal runs Kafka's read-only tools on the sample shown
// (internal/kafkatools/observedtools). The server refuses every request
// that would act. It lives apart from package web so that the simulated
// page, and the modules that build on it (the kit's live mode), do not
// link the observer's Kafka client.
package observed
