package dev.feedstore.server.testing;

import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.store.StepwiseAppend;
import dev.feedstore.core.store.StoreTransaction;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * A transaction whose views ({@code tx.blocks()}, {@code tx.feeds()}, ...) tell a hook of each call
 * before they make it: how test stores count statements or inject faults by what a call names. An
 * {@link AuthorityTransaction#append} runs step by step through the watched views ({@link
 * StepwiseAppend}, which every store's own way must match), so that its calls are seen too.
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
          if (method.getName().equals("append") && method.getDeclaringClass() == AuthorityTransaction.class) {
            @SuppressWarnings("unchecked")
            List<SpaceAppend> appends = (List<SpaceAppend>) args[0];
            return StepwiseAppend.run((AuthorityTransaction) proxy, appends);
          }
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
