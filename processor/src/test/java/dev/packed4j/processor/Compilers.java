package dev.packed4j.processor;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/**
 * A test that runs once under each {@link TestCompiler}: {@link Compilations} compiles with the one of the current
 * invocation, and a test method may take it as a {@code TestCompiler} parameter.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith(Compilers.Provider.class)
@interface Compilers {

  /** One invocation per compiler, named after it. */
  final class Provider implements TestTemplateInvocationContextProvider {
    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
      return context.getTestMethod().map(m -> m.isAnnotationPresent(Compilers.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
      return Arrays.stream(TestCompiler.values()).map(Invocation::new);
    }
  }

  /** One run of the test under {@code compiler}. */
  record Invocation(TestCompiler compiler) implements TestTemplateInvocationContext {
    @Override
    public String getDisplayName(int invocationIndex) {
      return compiler.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
      return List.of(new Current(compiler));
    }
  }

  /** Makes {@code compiler} the current one while the test runs, and resolves it as a parameter. */
  record Current(TestCompiler compiler)
      implements BeforeTestExecutionCallback, AfterTestExecutionCallback, ParameterResolver {
    @Override
    public void beforeTestExecution(ExtensionContext context) {
      TestCompiler.CURRENT.set(compiler);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
      TestCompiler.CURRENT.remove();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == TestCompiler.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return compiler;
    }
  }
}
