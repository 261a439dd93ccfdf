package dev.clearway.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The engine in any Spring Boot application that has this starter: it needs a PostgreSQL {@code
 * DataSource}, a {@code BusinessGateway} and a {@code WalletGateway} (or the channel layer, see
 * {@link ClearwayChannelAutoConfiguration}), and offers {@code PaymentService}.
 */
@AutoConfiguration(
    afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@Import(ClearwayEngineConfiguration.class)
public class ClearwayAutoConfiguration {}
