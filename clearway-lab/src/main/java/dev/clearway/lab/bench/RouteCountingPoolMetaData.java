package dev.clearway.lab.bench;

import java.util.Collection;
import java.util.Map;
import org.apache.shardingsphere.infra.datasource.pool.hikari.metadata.HikariDataSourcePoolMetaData;
import org.apache.shardingsphere.infra.datasource.pool.metadata.DataSourcePoolFieldMetaData;
import org.apache.shardingsphere.infra.datasource.pool.metadata.DataSourcePoolMetaData;

/**
 * ShardingSphere's description of {@link RouteCountingDataSource}: Hikari's (property names such as
 * {@code jdbcUrl}, defaults, fields), under the counting pool's class name, which is how
 * ShardingSphere finds a pool's description. Registered in {@code META-INF/services}.
 */
public final class RouteCountingPoolMetaData implements DataSourcePoolMetaData {
  private final HikariDataSourcePoolMetaData hikari = new HikariDataSourcePoolMetaData();

  @Override
  public Map<String, Object> getDefaultProperties() {
    return hikari.getDefaultProperties();
  }

  @Override
  public Map<String, Object> getSkippedProperties() {
    return hikari.getSkippedProperties();
  }

  @Override
  public Map<String, String> getPropertySynonyms() {
    return hikari.getPropertySynonyms();
  }

  @Override
  public Collection<String> getTransientFieldNames() {
    return hikari.getTransientFieldNames();
  }

  @Override
  public DataSourcePoolFieldMetaData getFieldMetaData() {
    return hikari.getFieldMetaData();
  }

  @Override
  public String getType() {
    return RouteCountingDataSource.class.getName();
  }
}
