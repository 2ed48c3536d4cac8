package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import java.net.URL;
import org.junit.jupiter.api.Test;

/**
 * The logging configuration the jar ships (tests run with their own logback-test.xml, so nothing
 * else reads it before a user does): it parses, and sets what serve relies on.
 */
class LogbackConfigTest {

  @Test
  void theShippedConfigurationParsesWithoutErrors() throws Exception {
    URL shipped = Sediment.class.getResource("/logback.xml");
    assertNotNull(shipped, "logback.xml is on the class path");
    LoggerContext ctx = new LoggerContext();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(ctx);
    configurator.doConfigure(shipped);
    assertTrue(new StatusUtil(ctx).getHighestLevel(0) < Status.ERROR,
        () -> ctx.getStatusManager().getCopyOfStatusList().toString());
    assertEquals(Level.WARN, ctx.getLogger("root").getLevel());
    assertEquals(false, ctx.getLogger("sediment.audit").isAdditive(),
        "audit lines never reach the console");
    ctx.stop();
  }
}
