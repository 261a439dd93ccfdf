package dev.clearway.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Import;

/**
 * The channel layer, when the application declares its PSP accounts ({@link ChannelAccounts}) and
 * their adapters ({@code AdapterRegistry}): the engine then pays through it.
 */
@AutoConfiguration(before = ClearwayAutoConfiguration.class)
@ConditionalOnBean(ChannelAccounts.class)
@Import(ClearwayChannelConfiguration.class)
public class ClearwayChannelAutoConfiguration {}
