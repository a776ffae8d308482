package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardProperties;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The valid name closest to a {@code guard.*} property that binds to nothing, found by walking
 * {@link GuardProperties} the way the binder does (a map's next element is a key, a list's an index): {@code
 * guard.rate-limit.defaults.algoritm} becomes {@code guard.rate-limit.defaults.algorithm}. A section misnamed beyond
 * spelling is found by the rest of the name: {@code guard.rate-limit.limits.order-submit.wait-for-replicas} binds
 * under {@code instances} and nowhere else, so it becomes {@code guard.rate-limit.instances.order-submit.wait-for-replicas}.
 */
final class GuardPropertyNames {

    private GuardPropertyNames() {
    }

    /**
     * The name with its first unknown element replaced by the closest known one, if one is close enough; else by the
     * one under which the rest of the name binds (the closest of them if several do).
     */
    static Optional<String> closest(ConfigurationPropertyName name) {
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            elements.add(name.getElement(i, ConfigurationPropertyName.Form.DASHED));
        }
        ResolvableType current = ResolvableType.forClass(GuardProperties.class);
        for (int i = 1; i < elements.size(); i++) {
            Class<?> raw = current.resolve(Object.class);
            if (isContainer(raw)) {
                current = contained(current);
                continue;
            }
            if (!isGuardSection(raw)) {
                return Optional.empty(); // a name that goes on below a value: nothing near it binds
            }
            Map<String, ResolvableType> properties = properties(raw);
            ResolvableType match = properties.get(elements.get(i));
            if (match == null) {
                return replaced(elements, i, properties);
            }
            current = match;
        }
        return Optional.empty();
    }

    private static Optional<String> replaced(List<String> elements, int index, Map<String, ResolvableType> properties) {
        String unknown = elements.get(index);
        Comparator<String> nearest = Comparator.comparingInt(candidate -> distance(candidate, unknown));
        Optional<String> candidate = properties.keySet().stream()
                .filter(name -> distance(name, unknown) <= Math.max(2, unknown.length() / 4))
                .min(nearest);
        if (candidate.isEmpty() && index + 1 < elements.size()) {
            candidate = properties.entrySet().stream()
                    .filter(property -> binds(property.getValue(), elements, index + 1))
                    .map(Map.Entry::getKey).min(nearest);
        }
        return candidate.map(known -> {
            List<String> fixed = new ArrayList<>(elements);
            fixed.set(index, known);
            return String.join(".", fixed);
        });
    }

    /** Whether the elements from {@code from} on name a property under {@code type}. */
    private static boolean binds(ResolvableType type, List<String> elements, int from) {
        ResolvableType current = type;
        for (int i = from; i < elements.size(); i++) {
            Class<?> raw = current.resolve(Object.class);
            if (isContainer(raw)) {
                if (List.class.isAssignableFrom(raw) && !elements.get(i).chars().allMatch(Character::isDigit)) {
                    return false;
                }
                current = contained(current);
                continue;
            }
            if (!isGuardSection(raw)) {
                return false; // a value (a number, a duration, an enum) has no properties of its own
            }
            current = properties(raw).get(elements.get(i));
            if (current == null) {
                return false;
            }
        }
        return true;
    }

    private static boolean isContainer(Class<?> raw) {
        return Map.class.isAssignableFrom(raw) || List.class.isAssignableFrom(raw);
    }

    /** A map's values or a list's elements. */
    private static ResolvableType contained(ResolvableType container) {
        return Map.class.isAssignableFrom(container.resolve(Object.class)) ? container.asMap().getGeneric(1)
                : container.as(List.class).getGeneric(0);
    }

    private static boolean isGuardSection(Class<?> raw) {
        return raw.getName().startsWith("io.guard.") && !raw.isEnum();
    }

    /** The readable properties of {@code type} by dashed name, with their types. */
    private static Map<String, ResolvableType> properties(Class<?> type) {
        Map<String, ResolvableType> properties = new LinkedHashMap<>();
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
            if (property.getReadMethod() != null && !property.getName().equals("class")) {
                properties.put(dashed(property.getName()), ResolvableType.forMethodReturnType(property.getReadMethod()));
            }
        }
        return properties;
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
