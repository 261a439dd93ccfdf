package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * A Java client generated from an OpenAPI document by OpenAPI Generator (the pinned CLI jar, run in
 * its own JVM: library {@code apache-httpclient}, Jackson; the generator's {@code native} library
 * has no authentication at all, this one builds an {@code HttpBearerAuth} per declared bearer
 * scheme), compiled here with {@code generated-client/ClientScenario.java}, and loaded apart from
 * the test classpath: the generated code needs Jackson 2, which the CLI jar brings, and Apache
 * HttpClient 5, which the build copies next to it.
 */
final class GeneratedClient implements AutoCloseable {
  static final Path CLI = Path.of("target", "openapi-generator", "openapi-generator-cli.jar");
  private static final List<Path> HTTP_CLIENT =
      List.of(
          CLI.resolveSibling("httpclient5.jar"),
          CLI.resolveSibling("httpcore5.jar"),
          CLI.resolveSibling("httpcore5-h2.jar"));
  private static final String SCENARIO = "dev.clearway.client.scenario.ClientScenario";

  private final Path sources;
  private final URLClassLoader loader;

  private GeneratedClient(Path sources, URLClassLoader loader) {
    this.sources = sources;
    this.loader = loader;
  }

  /** Generates, compiles and loads the client of {@code document} under {@code work}. */
  static GeneratedClient of(String document, Path work) throws Exception {
    assertThat(CLI).as("copied by the build (maven-dependency-plugin)").exists();
    assertThat(HTTP_CLIENT)
        .allMatch(Files::exists, "copied by the build (maven-dependency-plugin)");
    Path spec = work.resolve("api-docs.json");
    Files.writeString(spec, document, StandardCharsets.UTF_8);
    // Kept next to the generator for whoever reads a failure.
    Files.writeString(CLI.resolveSibling("api-docs.json"), document, StandardCharsets.UTF_8);
    Path out = work.resolve("client");
    generate(spec, out);
    Path classes = Files.createDirectories(work.resolve("classes"));
    compile(scenarioSource(work), out.resolve("src/main/java"), classes);
    List<URL> urls = new ArrayList<>(List.of(classes.toUri().toURL(), CLI.toUri().toURL()));
    for (Path jar : HTTP_CLIENT) {
      urls.add(jar.toUri().toURL());
    }
    urls.add(jakartaAnnotations());
    URLClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    return new GeneratedClient(out, loader);
  }

  private static void generate(Path spec, Path out) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path log = out.resolveSibling("generator.log");
    Process generator =
        new ProcessBuilder(
                java.toString(),
                "-jar",
                CLI.toString(),
                "generate",
                "-i",
                spec.toString(),
                "-g",
                "java",
                "--library",
                "apache-httpclient",
                "-o",
                out.toString(),
                "--api-package",
                "dev.clearway.client.api",
                "--model-package",
                "dev.clearway.client.model",
                "--invoker-package",
                "dev.clearway.client",
                "--additional-properties",
                "openApiNullable=false,useJakartaEe=true,hideGenerationTimestamp=true",
                "--global-property",
                "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    // About 15 s of CPU; a machine shared by several builds may stretch it to minutes.
    boolean done = generator.waitFor(300, TimeUnit.SECONDS);
    if (!done) {
      generator.destroyForcibly();
    }
    assertThat(done && generator.exitValue() == 0)
        .as("OpenAPI Generator: %s", Files.readString(log))
        .isTrue();
  }

  private static File scenarioSource(Path work) throws IOException {
    Path target = work.resolve("ClientScenario.java");
    try (InputStream in =
        GeneratedClient.class.getResourceAsStream("/generated-client/ClientScenario.java")) {
      assertThat(in).as("generated-client/ClientScenario.java").isNotNull();
      Files.copy(in, target);
    }
    return target.toFile();
  }

  /** Compiles the scenario and, from the generated sources, only the classes it reaches. */
  private static void compile(File scenario, Path generated, Path classes) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> problems = new DiagnosticCollector<>();
    try (StandardJavaFileManager manager =
        javac.getStandardFileManager(problems, null, StandardCharsets.UTF_8)) {
      StringBuilder classpath = new StringBuilder(CLI.toAbsolutePath().toString());
      for (Path jar : HTTP_CLIENT) {
        classpath.append(File.pathSeparator).append(jar.toAbsolutePath());
      }
      classpath.append(File.pathSeparator).append(new File(jakartaAnnotations().getPath()));
      List<String> options =
          List.of(
              "-d",
              classes.toString(),
              "-sourcepath",
              generated.toString(),
              "-classpath",
              classpath.toString(),
              "-proc:none",
              "-nowarn");
      boolean ok =
          javac
              .getTask(null, manager, problems, options, null, manager.getJavaFileObjects(scenario))
              .call();
      assertThat(ok).as("the generated client compiles: %s", problems.getDiagnostics()).isTrue();
    }
  }

  /** The jar of jakarta.annotation.Generated, which the generated classes are annotated with. */
  private static URL jakartaAnnotations() throws MalformedURLException {
    try {
      return Class.forName("jakarta.annotation.Generated")
          .getProtectionDomain()
          .getCodeSource()
          .getLocation();
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("jakarta.annotation-api is not on the test classpath", e);
    }
  }

  /** The generated sources' directory, e.g. to read its README. */
  Path sources() {
    return sources;
  }

  /** A scenario over the generated client, talking to {@code baseUrl} with {@code merchantKey}. */
  Scenario scenario(String baseUrl, String merchantKey) throws ReflectiveOperationException {
    Object target =
        loader
            .loadClass(SCENARIO)
            .getConstructor(String.class, String.class)
            .newInstance(baseUrl, merchantKey);
    return new Scenario(target);
  }

  /** Calls the compiled ClientScenario by reflection; every answer is a plain map. */
  static final class Scenario {
    private final Object target;

    private Scenario(Object target) {
      this.target = target;
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> call(String method, Object... args) {
      Class<?>[] types = new Class<?>[args.length];
      for (int i = 0; i < args.length; i++) {
        types[i] = args[i].getClass();
      }
      try {
        return (Map<String, Object>)
            target.getClass().getMethod(method, types).invoke(target, args);
      } catch (InvocationTargetException e) {
        throw new IllegalStateException(method + " failed", e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(method, e);
      }
    }
  }

  @Override
  public void close() {
    try {
      loader.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
