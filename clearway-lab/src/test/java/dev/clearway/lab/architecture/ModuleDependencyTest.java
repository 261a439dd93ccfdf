package dev.clearway.lab.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module graph, checked on the compiled main code of every module: production modules (core,
 * store, psp, wallet-http, business-http, amqp, redis, starter, service) never reach the simulator
 * or the laboratory, the core needs nothing but the JDK, and dependencies point inwards: store,
 * psp, wallet-http, business-http, amqp and redis to the core only; the starter to those; the
 * service to the starter and what it brings. Benchmark peers (db-scheduler) belong to the
 * laboratory: no production module's code uses them and no production module's pom declares them.
 */
class ModuleDependencyTest {
  private static final String CORE = "dev.clearway.core..";
  private static final String STORE = "dev.clearway.store..";
  private static final String PSP = "dev.clearway.psp..";
  private static final String WALLET_HTTP = "dev.clearway.wallet.http..";
  private static final String BUSINESS_HTTP = "dev.clearway.business.http..";
  private static final String AMQP = "dev.clearway.amqp..";
  private static final String REDIS = "dev.clearway.redis..";
  private static final String STARTER = "dev.clearway.boot..";
  private static final String SERVICE = "dev.clearway.service..";
  private static final String SIM = "dev.clearway.sim..";
  private static final String LAB = "dev.clearway.lab..";

  private static final String[] PRODUCTION_MODULES = {
    "clearway-core",
    "clearway-store",
    "clearway-sharding",
    "clearway-psp",
    "clearway-wallet-http",
    "clearway-business-http",
    "clearway-amqp",
    "clearway-redis",
    "clearway-spring-boot-starter",
    "clearway-service"
  };

  private static JavaClasses main;

  /** Test classes (test-classes directories and test jars) are not part of any module's graph. */
  private static final ImportOption MAIN_ONLY =
      (Location location) ->
          !location.contains("/test-classes/")
              && !location.matches(java.util.regex.Pattern.compile(".*-tests\\.jar.*"));

  @BeforeAll
  static void importMainCode() {
    main = new ClassFileImporter().withImportOption(MAIN_ONLY).importPackages("dev.clearway");
  }

  @Test
  void productionModulesNeverDependOnTheSimulatorOrTheLab() {
    noClasses()
        .that()
        .resideInAnyPackage(
            CORE, STORE, PSP, WALLET_HTTP, BUSINESS_HTTP, AMQP, REDIS, STARTER, SERVICE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(SIM, LAB)
        .check(main);
  }

  @Test
  void theCoreNeedsNothingButTheJdk() {
    classes()
        .that()
        .resideInAPackage(CORE)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(CORE, "java..", "javax.crypto..")
        .check(main);
  }

  @Test
  void theAdapterModulesDependOnTheCoreOnly() {
    noClasses()
        .that()
        .resideInAPackage(STORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PSP, WALLET_HTTP, BUSINESS_HTTP, AMQP, REDIS, STARTER, SERVICE)
        .check(main);
    noClasses()
        .that()
        .resideInAPackage(PSP)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(STORE, WALLET_HTTP, BUSINESS_HTTP, AMQP, REDIS, STARTER, SERVICE)
        .check(main);
    noClasses()
        .that()
        .resideInAPackage(WALLET_HTTP)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(STORE, PSP, BUSINESS_HTTP, AMQP, REDIS, STARTER, SERVICE)
        .check(main);
    noClasses()
        .that()
        .resideInAPackage(BUSINESS_HTTP)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(STORE, PSP, WALLET_HTTP, AMQP, REDIS, STARTER, SERVICE)
        .check(main);
    noClasses()
        .that()
        .resideInAPackage(AMQP)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(STORE, PSP, WALLET_HTTP, BUSINESS_HTTP, REDIS, STARTER, SERVICE)
        .check(main);
    noClasses()
        .that()
        .resideInAPackage(REDIS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(STORE, PSP, WALLET_HTTP, STARTER, SERVICE)
        .check(main);
  }

  @Test
  void theStarterNeverDependsOnTheService() {
    noClasses()
        .that()
        .resideInAPackage(STARTER)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(SERVICE)
        .check(main);
  }

  @Test
  void benchmarkPeersStayInTheLab() throws java.io.IOException {
    noClasses()
        .that()
        .resideInAnyPackage(
            CORE, STORE, PSP, WALLET_HTTP, BUSINESS_HTTP, AMQP, REDIS, STARTER, SERVICE)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.github.kagkarlsson..")
        .check(main);
    // The build runs this test in clearway-lab; the modules are its siblings.
    java.nio.file.Path root = java.nio.file.Path.of("..").toAbsolutePath().normalize();
    for (String module : PRODUCTION_MODULES) {
      java.nio.file.Path pom = root.resolve(module).resolve("pom.xml");
      org.assertj.core.api.Assertions.assertThat(pom).exists();
      org.assertj.core.api.Assertions.assertThat(java.nio.file.Files.readString(pom))
          .as(module + " must not depend on db-scheduler")
          .doesNotContain("db-scheduler")
          .doesNotContain("com.github.kagkarlsson");
    }
    org.assertj.core.api.Assertions.assertThat(
            java.nio.file.Files.readString(root.resolve("clearway-lab").resolve("pom.xml")))
        .contains("<artifactId>db-scheduler</artifactId>");
  }
}
