// The cluster suite's harness in one import, for Playwright specs and scripts (a benchmark).
export { CLUSTER_ADMIN, clusterProblem, startCluster, type AddCompanionOptions, type Cluster, type ClusterOptions } from './cluster.js';
export { startCompanion, type Companion, type CompanionOptions } from './companion.js';
export { findNginx, startNginx, type AccessLogEntry, type LoadBalancer, type NginxOptions } from './nginx.js';
export { findPostgresBin, postgresProblem, startPostgres, type PostgresCluster } from './postgres.js';
export { startS3, type S3Server } from './s3.js';
