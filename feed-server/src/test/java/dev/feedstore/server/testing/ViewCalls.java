package dev.feedstore.server.testing;

import dev.feedstore.core.store.StoreTransaction;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * A transaction whose views ({@code tx.blocks()}, {@code tx.feeds()}, ...) tell a hook of each call
 * before they make it: how test stores count statements or inject faults by what a call names.
 * Stateless and thread-safe.
 */
final class ViewCalls {
  /** Told of a call to a view, with the method (declared by the view's interface) and its arguments. */
  @FunctionalInterface
  interface Hook {
    void before(Method method, Object[] args);
  }

  private ViewCalls() {}

  /** {@code tx}, with {@code hook} told of every call to one of its views; the hook may throw to fail the call. */
  static StoreTransaction watched(StoreTransaction tx, Hook hook) {
    return (StoreTransaction) Proxy.newProxyInstance(ViewCalls.class.getClassLoader(),
        new Class<?>[] {StoreTransaction.class}, (proxy, method, args) -> {
          Object view = invoke(tx, method, args);
          Class<?> type = method.getReturnType();
          if (!type.isInterface() || view == null) {
            return view;
          }
          return Proxy.newProxyInstance(ViewCalls.class.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
            hook.before(m, a);
            return invoke(view, m, a);
          });
        });
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
