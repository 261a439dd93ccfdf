/** The store on sharded MySQL/MariaDB through Apache ShardingSphere-JDBC. */
package dev.clearway.sharding;
