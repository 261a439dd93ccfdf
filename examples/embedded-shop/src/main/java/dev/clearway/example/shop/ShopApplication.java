package dev.clearway.example.shop;

import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.wallet.http.HttpWalletConfig;
import dev.clearway.wallet.http.HttpWalletGateway;
import java.net.URI;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A shop that sells memberships: the starter brings the engine ({@code PaymentService}) on the
 * application's PostgreSQL {@code DataSource} ({@code spring.datasource.*}); the shop gives it the
 * wallet to charge and its own business service, {@link Memberships}.
 */
@SpringBootApplication
public class ShopApplication {
  public static void main(String[] args) {
    SpringApplication.run(ShopApplication.class, args);
  }

  @Bean
  WalletGateway wallet(@Value("${shop.wallet-url}") URI walletUrl) {
    return new HttpWalletGateway(HttpWalletConfig.of(walletUrl));
  }

  @Bean
  BusinessGateway memberships() {
    return new Memberships();
  }
}
