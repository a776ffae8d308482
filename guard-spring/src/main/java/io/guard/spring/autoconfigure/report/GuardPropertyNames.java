package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardProperties;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The valid name closest to a {@code guard.*} property that binds to nothing, found by walking
 * {@link GuardProperties} the way the binder does (a map's next element is a key): {@code
 * guard.rate-limit.defaults.algoritm} becomes {@code guard.rate-limit.defaults.algorithm}.
 */
final class GuardPropertyNames {

    private GuardPropertyNames() {
    }

    /** The name with its first unknown element replaced by the closest known one, if one is close enough. */
    static Optional<String> closest(ConfigurationPropertyName name) {
        Class<?> type = GuardProperties.class;
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            elements.add(name.getElement(i, ConfigurationPropertyName.Form.DASHED));
        }
        ResolvableType current = ResolvableType.forClass(type);
        for (int i = 1; i < elements.size(); i++) {
            Class<?> raw = current.resolve(Object.class);
            if (Map.class.isAssignableFrom(raw)) {
                current = current.asMap().getGeneric(1);
                continue;
            }
            PropertyDescriptor match = null;
            List<String> candidates = new ArrayList<>();
            for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(raw)) {
                if (property.getReadMethod() == null || property.getName().equals("class")) {
                    continue;
                }
                String dashed = dashed(property.getName());
                candidates.add(dashed);
                if (dashed.equals(elements.get(i))) {
                    match = property;
                }
            }
            if (match == null) {
                String unknown = elements.get(i);
                int index = i;
                return candidates.stream()
                        .filter(candidate -> distance(candidate, unknown) <= Math.max(2, unknown.length() / 4))
                        .min((a, b) -> Integer.compare(distance(a, unknown), distance(b, unknown)))
                        .map(candidate -> {
                            List<String> fixed = new ArrayList<>(elements);
                            fixed.set(index, candidate);
                            return String.join(".", fixed);
                        });
            }
            current = ResolvableType.forMethodReturnType(match.getReadMethod());
        }
        return Optional.empty();
    }

    private static String dashed(String javaName) {
        StringBuilder out = new StringBuilder();
        for (char c : javaName.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('-').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Levenshtein distance: edits (insert, delete, replace) from one name to the other. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int replace = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                row[j] = Math.min(replace, Math.min(previous[j], row[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = row;
            row = swap;
        }
        return previous[b.length()];
    }
}
