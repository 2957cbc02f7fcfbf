package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.ClusterSuite;
import io.hourglass.spring.testsuite.BootLine;

/** {@link ClusterSuite} on Spring Boot 3.5. */
class Boot3ClusterTests extends ClusterSuite {

  @Override
  protected BootLine line() {
    return Boot3Line.INSTANCE;
  }
}
