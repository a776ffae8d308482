package io.guard.spring.web;

import jakarta.servlet.Filter;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import java.util.ArrayList;
import java.util.List;

/** MockMvc with the context's servlet filters in their order, as Spring Boot registers them with the container. */
final class FilteredMockMvc {

    private FilteredMockMvc() {
    }

    static MockMvc of(WebApplicationContext context) {
        List<Filter> filters = new ArrayList<>(context.getBeansOfType(Filter.class).values());
        AnnotationAwareOrderComparator.sort(filters);
        return MockMvcBuilders.webAppContextSetup(context).addFilters(filters.toArray(Filter[]::new)).build();
    }
}
