package dev.flipper.workflow.master.server;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * Times every Thrift call of the token master ({@code TokenMaster.<method>}) and counts failures
 * ({@code TokenMaster.<method>.errors.<CODE>}, UNKNOWN for anything but a TokenMasterException), so
 * the admin /metrics shows request rates, errors and latency per method. Stateless.
 */
final class TimedCalls {
  private TimedCalls() {}

  static TokenMasterService.Iface wrap(TokenMasterService.Iface target, MetricRegistry metrics) {
    return (TokenMasterService.Iface)
        Proxy.newProxyInstance(
            TokenMasterService.Iface.class.getClassLoader(),
            new Class<?>[] {TokenMasterService.Iface.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return method.invoke(target, args);
              }
              Timer.Context timing = metrics.timer("TokenMaster." + method.getName()).time();
              try {
                return method.invoke(target, args);
              } catch (InvocationTargetException e) {
                Throwable failure = e.getCause();
                String code =
                    failure instanceof TokenMasterException tme && tme.errorCode != null
                        ? tme.errorCode.name()
                        : "UNKNOWN";
                metrics.counter("TokenMaster." + method.getName() + ".errors." + code).inc();
                throw failure;
              } finally {
                timing.stop();
              }
            });
  }
}
