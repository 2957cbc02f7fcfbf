package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.MetricsSuite;
import io.hourglass.spring.testsuite.BootLine;

/** {@link MetricsSuite} on Spring Boot 3.5. */
class Boot3MetricsTests extends MetricsSuite {

  @Override
  protected BootLine line() {
    return Boot3Line.INSTANCE;
  }
}
