package io.guard;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The parts of a {@code pom.xml} that the build-layout tests read, by element path from {@code <project>}. */
record Pom(Path file, Element project) {

    static Pom read(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(file.toFile());
            return new Pom(file, document.getDocumentElement());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    /** The text of the element at {@code path} (e.g. {@code properties/maven.deploy.skip}); empty when absent. */
    String text(String path) {
        List<Element> found = all(path);
        return found.isEmpty() ? "" : found.get(0).getTextContent().trim();
    }

    /** Every element at {@code path}, in document order. */
    List<Element> all(String path) {
        List<Element> level = List.of(project);
        for (String name : path.split("/")) {
            List<Element> next = new ArrayList<>();
            for (Element parent : level) {
                NodeList children = parent.getChildNodes();
                for (int i = 0; i < children.getLength(); i++) {
                    Node child = children.item(i);
                    if (child instanceof Element element && element.getTagName().equals(name)) {
                        next.add(element);
                    }
                }
            }
            level = next;
        }
        return level;
    }

    /** The text of {@code child} inside {@code element}; empty when absent. */
    static String child(Element element, String child) {
        NodeList found = element.getElementsByTagName(child);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().trim();
    }
}
