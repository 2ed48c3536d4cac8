package io.sediment.faults;

/**
 * What every part of the campaign works with: the jar to run, the temporary directories, the
 * options, and the time limit of the whole run.
 */
record CampaignContext(SedimentLauncher launcher, Workspace workspace, CampaignOptions options,
    Deadline deadline) {
}
